"""Objects as the wire carries them (the reference's section 2): every field, null when empty."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from stores.models import Memory, Store


def ts(value: datetime | None) -> str | None:
    if value is None:
        return None
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def store_json(store: Store) -> dict[str, Any]:
    return {
        "type": "memory_store",
        "id": store.public_id,
        "name": store.name,
        "description": store.description or "",
        "metadata": store.full_metadata,
        "created_at": ts(store.created_at),
        "updated_at": ts(store.updated_at),
        "archived_at": ts(store.archived_at),
    }


def memory_json(memory: Memory, store: Store, view: str) -> dict[str, Any]:
    return {
        "type": "memory",
        "id": memory.public_id,
        "memory_store_id": store.public_id,
        "path": memory.path,
        "content": memory.content if view == "full" else None,
        "content_sha256": memory.content_sha256,
        "content_size_bytes": memory.size_bytes,
        "memory_version_id": memory.head_version_id,
        "created_at": ts(memory.created_at),
        "updated_at": ts(memory.updated_at),
    }


def prefix_json(path: str) -> dict[str, Any]:
    return {"type": "memory_prefix", "path": path}


def version_json(version, store: Store, view: str) -> dict[str, Any]:
    redacted = version.version_redacted_at is not None
    deleted = version.operation == "deleted"
    has_text = not redacted and not deleted
    return {
        "type": "memory_version",
        "id": version.version_id,
        "memory_id": version.public_id,
        "memory_store_id": store.public_id,
        "operation": version.operation,
        "path": None if redacted else version.path,
        "content": version.content if (has_text and view == "full") else None,
        "content_sha256": version.content_sha256 if has_text else None,
        "content_size_bytes": version.size_bytes if has_text else None,
        "created_by": version.actor,
        "created_at": ts(version.history_date),
        "redacted_at": ts(version.version_redacted_at),
        "redacted_by": version.version_redacted_by,
    }
