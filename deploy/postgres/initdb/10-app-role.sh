#!/bin/sh
# First start of the database container (docker-entrypoint-initdb.d): create the restricted
# application role, give it a login, and install its grants and default privileges. Runs as
# POSTGRES_USER, the owner that the one-shot `migrate` service connects as.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    -f /casino/app-grants.sql
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    -v pw="$CASINO_APP_PASSWORD" <<'SQL'
ALTER ROLE casino_app LOGIN PASSWORD :'pw';
SQL
