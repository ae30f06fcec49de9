"""The throwaway PostgreSQL server under the name tests/cogs import it by; it lives in `local_postgres.server`."""

from local_postgres.server import PostgresMissing, PostgresServer

__all__ = ["PostgresMissing", "PostgresServer"]
