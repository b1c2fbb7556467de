"""The full-text index of run records, kept by the database itself so no door can leave it behind.

PostgreSQL: a generated tsvector column on runs_runrecord (the transcript and every string in the
events) with a GIN index. A record's purge (retention, engagement close, a run deleted with its
records) takes its entry with the row, and a scrub (redaction, rescrub) recomputes it.
SQLite: the FTS5 table runs_record_fts (rowid = the record's id, one column: the same text),
written by triggers on insert, on update of the text and on delete, for the same reasons.
Each part runs only on its database; existing records are indexed as the index is made.
"""

from django.db import migrations

PG_FORWARD = [
    """
    ALTER TABLE runs_runrecord ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
        to_tsvector('english'::regconfig, coalesce(transcript, ''))
        || jsonb_to_tsvector('english'::regconfig, coalesce(events, 'null'::jsonb), '["string"]'::jsonb)
    ) STORED
    """,
    "CREATE INDEX runs_runrecord_vector ON runs_runrecord USING gin (search_vector)",
]
PG_BACKWARD = [
    "DROP INDEX IF EXISTS runs_runrecord_vector",
    "ALTER TABLE runs_runrecord DROP COLUMN IF EXISTS search_vector",
]

# The record's text as the index reads it: the transcript, then every string value in the events
# (keys left out), one a line. runs.search reads it back the same way on PostgreSQL for snippets.
_SQLITE_BODY = (
    "coalesce({row}.transcript, '') || char(10) || coalesce((SELECT group_concat(value, char(10)) "
    "FROM json_tree({row}.events) WHERE type = 'text'), '')"
)
SQLITE_FORWARD = [
    "CREATE VIRTUAL TABLE runs_record_fts USING fts5(body, tokenize = 'porter unicode61')",
    "CREATE TRIGGER runs_record_fts_insert AFTER INSERT ON runs_runrecord BEGIN "
    f"INSERT INTO runs_record_fts(rowid, body) VALUES (new.id, {_SQLITE_BODY.format(row='new')}); END",
    "CREATE TRIGGER runs_record_fts_update AFTER UPDATE OF transcript, events ON runs_runrecord BEGIN "
    "DELETE FROM runs_record_fts WHERE rowid = old.id; "
    f"INSERT INTO runs_record_fts(rowid, body) VALUES (new.id, {_SQLITE_BODY.format(row='new')}); END",
    "CREATE TRIGGER runs_record_fts_delete AFTER DELETE ON runs_runrecord BEGIN "
    "DELETE FROM runs_record_fts WHERE rowid = old.id; END",
    f"INSERT INTO runs_record_fts(rowid, body) SELECT r.id, {_SQLITE_BODY.format(row='r')} FROM runs_runrecord r",
]
SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS runs_record_fts_insert",
    "DROP TRIGGER IF EXISTS runs_record_fts_update",
    "DROP TRIGGER IF EXISTS runs_record_fts_delete",
    "DROP TABLE IF EXISTS runs_record_fts",
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        for sql in statements_by_vendor.get(schema_editor.connection.vendor, []):
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):

    dependencies = [
        ("runs", "0002_run_attachments"),
    ]

    operations = [
        migrations.RunPython(_run({"postgresql": PG_FORWARD, "sqlite": SQLITE_FORWARD}),
                             _run({"postgresql": PG_BACKWARD, "sqlite": SQLITE_BACKWARD})),
    ]
