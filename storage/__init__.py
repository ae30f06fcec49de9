"""Arena's storage: one repository per aggregate (a game's matches, a server's settings, a member's data) over
either backend, SQLite (`storage.sqlite`, the default) or PostgreSQL (`storage.postgres`), both behind the
`Storage` protocol (`storage.protocol`), with the numbered migrations in storage/migrations/."""
