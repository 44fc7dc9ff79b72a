-- The application's database role: run as the role that owns the schema and runs the
-- migrations (compose: the database's owner, at first start, before `migrate`).
-- Idempotent; may also be run again after migrations (it then covers existing tables).
--
-- casino_app may read and write the read models (projections, snapshots, idempotency
-- records) but only SELECT and INSERT the event log: no UPDATE, DELETE or TRUNCATE, and,
-- being neither the owner nor a superuser, it cannot disable the log's triggers or set
-- session_replication_role. Its LOGIN and password are set by the caller
-- (deploy/postgres/initdb/10-app-role.sh).

DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'casino_app') THEN
        CREATE ROLE casino_app NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
    END IF;
END $$;

GRANT USAGE ON SCHEMA public TO casino_app;

-- Tables and sequences the owner creates from now on (every later migration).
ALTER DEFAULT PRIVILEGES IN SCHEMA public
    GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO casino_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public
    GRANT USAGE, SELECT ON SEQUENCES TO casino_app;

-- Tables that exist already (the script run after `migrate`).
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO casino_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO casino_app;

-- The log: read and append only. Migration eventstore 0003 revokes the same from every
-- role but the owner when it creates or finds the table, so the order does not matter.
DO $$
BEGIN
    IF to_regclass('eventstore_event') IS NOT NULL THEN
        REVOKE UPDATE, DELETE, TRUNCATE, TRIGGER ON eventstore_event FROM casino_app;
        REVOKE UPDATE, DELETE, TRUNCATE, TRIGGER ON eventstore_event FROM PUBLIC;
    END IF;
END $$;
