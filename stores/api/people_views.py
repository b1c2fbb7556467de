"""The people's API: Recently deleted, Restore and Redact all versions, for people's tokens.

The same services as the console pages decide, so a person's token does exactly what the
console lets that person do. Agents' tokens get 403 `people_only`.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone
from rest_framework.response import Response

from stores.console import redaction  # noqa: F401  (registers the console's redaction scrubbers)
from stores.console_checks.when import PATH_FINGERPRINT_KEY
from stores.errors import InvalidRequest, PermissionDenied
from stores.models import Memory, Store
from stores.services.memories import memory_restore
from stores.services.redaction import memory_redact_all_versions

from .pagination import newest_first_page, page, query_view, query_view_and_limit
from .representations import memory_json, ts
from .views import ApiView


def deleted_memory_json(memory: Memory, store: Store, view: str = "basic") -> dict[str, Any]:
    """A deleted memory: who deleted it, when and why, until when it can be restored, and any redaction."""
    redacted = memory.redacted_at is not None
    restorable_until = None
    if not redacted and memory.deleted_at is not None:
        restorable_until = ts(memory.deleted_at + timedelta(days=settings.RECENTLY_DELETED_DAYS))
    return {
        "type": "deleted_memory",
        "id": memory.public_id,
        "memory_store_id": store.public_id,
        "path": None if redacted else memory.path,
        "content": memory.content if (view == "full" and not redacted) else None,
        "content_sha256": None if redacted else memory.content_sha256,
        "content_size_bytes": None if redacted else memory.size_bytes,
        "memory_version_id": memory.head_version_id,
        "created_at": ts(memory.created_at),
        "updated_at": ts(memory.updated_at),
        "deleted_at": ts(memory.deleted_at),
        "deleted_by": memory.deleted_by,
        "delete_reason": memory.delete_reason or None,
        "restorable_until": restorable_until,
        "redacted_at": ts(memory.redacted_at),
        "redacted_by": {k: v for k, v in memory.redacted_by.items() if k != PATH_FINGERPRINT_KEY}
        if memory.redacted_by else memory.redacted_by,
    }


def _reason(data: Any) -> str:
    if not isinstance(data, dict):
        return ""
    reason = data.get("reason")
    if reason is None:
        return ""
    if not isinstance(reason, str):
        raise InvalidRequest("`reason` must be a string.")
    if len(reason) > 2000:
        raise InvalidRequest("`reason` is longer than 2,000 characters; keep it to a sentence or two.")
    return reason


class PeopleApiView(ApiView):
    """A store as a person's token may see it; an agent's token is told these routes are for people."""

    def person_store(self, store_id: str) -> Store:
        store = self.store(store_id)
        if not self.writer.is_person:
            raise PermissionDenied(
                "Deleted memories are listed, restored and redacted by people (escalation contacts and "
                "console admins), not by agents.",
                code="people_only",
            )
        return store


class DeletedMemoryListView(PeopleApiView):
    def get(self, request, store_id: str):
        store = self.person_store(store_id)
        params = request.query_params
        view, limit = query_view_and_limit(params)
        cutoff = timezone.now() - timedelta(days=settings.RECENTLY_DELETED_DAYS)
        qs = Memory.objects.filter(store=store, deleted_at__gte=cutoff)
        rows, next_key = newest_first_page(qs, params, time_field="deleted_at", limit=limit)
        return Response(page([deleted_memory_json(m, store, view) for m in rows], next_key))


class DeletedMemoryRestoreView(PeopleApiView):
    def post(self, request, store_id: str, memory_id: str):
        store = self.person_store(store_id)
        view = query_view(request.query_params, "basic")
        memory = memory_restore(writer=self.writer, store=store, memory_id=memory_id, reason=_reason(request.data))
        return Response(memory_json(memory, store, view))


class DeletedMemoryRedactView(PeopleApiView):
    def post(self, request, store_id: str, memory_id: str):
        store = self.person_store(store_id)
        # The console's rules: the same service, the same who-check (contacts on their projects), and
        # the person's reason kept with the redaction.
        memory = memory_redact_all_versions(
            writer=self.writer, store=store, memory_id=memory_id, reason=_reason(request.data)
        )
        return Response(deleted_memory_json(memory, store))
