"""The one practice store, and byte-order ("C") collation for memory paths on PostgreSQL.

Paths are listed in code-point order (the reference's section 4.4). SQLite compares text
bytewise already; PostgreSQL needs the "C" collation on the column.
"""

from django.db import migrations


def make_practice_store(apps, schema_editor):
    Store = apps.get_model("stores", "Store")
    if not Store.objects.filter(kind="practice").exists():
        from stores.ids import new_store_id

        Store.objects.create(
            public_id=new_store_id(),
            kind="practice",
            name="Practice",
            description="Rittman Analytics patterns and house conventions. Read-only to agents.",
        )


def c_collation(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in ("stores_memory", "stores_historicalmemory"):
        schema_editor.execute(f'ALTER TABLE {table} ALTER COLUMN path TYPE varchar(1024) COLLATE "C"')


class Migration(migrations.Migration):
    dependencies = [("stores", "0001_initial")]

    operations = [
        migrations.RunPython(make_practice_store, migrations.RunPython.noop),
        migrations.RunPython(c_collation, migrations.RunPython.noop),
    ]
