"""The database of the web app's rooms and the scorepad's sheets: its own part,
between the core and the interfaces that keep things (docs/architecture.md).

- `location`: where the database is (`database_url`);
- `engine`: the engine of a URL (`engine_for`), one a process, handed to every part
  of it that uses the database;
- `tables`: every table, one declarative `Base` (the rooms, the scorepad's sheets,
  a cluster's rate buckets);
- `schema`: the one schema version and its migrations (`migrate`).

SQLite by default, PostgreSQL by URL (docs/deploy.md). The core never imports it.
"""
