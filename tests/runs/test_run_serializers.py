"""The sync rows' fast rendering says exactly what their declared fields (and so the schema) say."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from rest_framework import serializers

from runs.api.serializers import SyncMemoryOut

ROW = {
    "pk": 7, "public_id": "mem_x", "memory_store_id": "memstore_x", "path": "/a/b.md", "content": "text\n",
    "content_sha256": "0" * 64, "size_bytes": 5, "head_version_id": "memver_x", "change_seq": 12,
    "updated_at": datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC), "deleted_at": None, "deleted_by_person": False,
}


@pytest.mark.parametrize(
    "row",
    [ROW, {**ROW, "deleted_at": datetime(2026, 1, 3, tzinfo=UTC), "deleted_by_person": True},
     {**ROW, "deleted_at": datetime(2026, 1, 3, tzinfo=UTC), "deleted_by_person": False}],
    ids=["live", "deleted by a person", "deleted by an agent"],
)
def test_the_fast_rendering_equals_drf_s_field_by_field_one(row):
    out = SyncMemoryOut()
    generic = serializers.Serializer.to_representation(out, row)
    fast = out.to_representation(row)
    assert list(fast) == list(generic) == list(out.fields)
    assert fast == dict(generic)
    assert fast["updated_at"] == "2026-01-02T03:04:05.000006Z"
