"""The create's one counting statement, written out, counts as the ORM's aggregate of the same filter."""

from __future__ import annotations

from django.db.models import Count

from stores.models import Memory
from stores.services.memories import _conflict_q, live_and_conflicts, memory_delete
from tests import factories as f

# Paths with LIKE's special characters, a root path, folders and near misses.
SAVED = ("/data/a.md", "/data/a/b.md", "/data/a/b/c.md", "/data/100%_done.md", "/data/x_y.md", "/data/back\\slash.md",
         "/data/x%y/z.md", "/data/ab.md", "/data/a.md.md", "/issues/a.md")
ASKED = ("/data/a.md", "/data/a", "/data/a/b", "/data/a/b.md/c.md", "/data/a/b/c.md/d.md", "/data/new.md", "/data/100%",
         "/data/x_y", "/data/x%y", "/data/xzy", "/data/back\\slash.md/x.md", "/data", "/data/a.m", "/data/A.md", "/new.md")


def test_the_written_out_counts_equal_the_orm_aggregate(world):
    store = world.project_store
    for path in SAVED:
        f.make_memory(store, path)
    gone = f.make_memory(store, "/issues/gone/old.md")
    memory_delete(writer=f.person_writer(world.admin), store=store, memory_id=gone.public_id, reason="Stale")
    for path in ASKED + SAVED + ("/issues/gone/old.md", "/issues/gone"):
        expected = Memory.objects.filter(store=store, deleted_at__isnull=True).aggregate(
            live=Count("*"), conflicts=Count("path", filter=_conflict_q(path)))
        assert live_and_conflicts(store, path) == expected, path
