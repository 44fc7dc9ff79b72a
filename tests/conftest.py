"""Shared fixtures. The suite runs against real PostgreSQL and Redis: ``DATABASE_URL`` and
``REDIS_URL`` default to the local servers (pyproject ``[tool.pytest.ini_options] env``)."""
