"""Redaction: removing text for good. These functions bypass history on purpose (QuerySet.update)."""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from stores.console_checks.request import ChangeRequest, Writer
from stores.console_checks.when import PATH_FINGERPRINT_KEY, path_fingerprint
from stores.errors import InvalidRequest, NotFound
from stores.models import Memory, SetAside, Store

from .memories import _check, _lock, _recording_refusals, _safe_reason
from .search import search_index_purge_memory

logger = logging.getLogger(__name__)

REDACTED_VERSION_FIELDS = {
    "content": "", "path": "", "content_sha256": "", "size_bytes": 0, "first_line": "", "delete_reason": "",
}


def _redact_hooks():
    """Other apps' holders of memory text (run records, caches) register here to be scrubbed too."""
    from stores.services import redaction_hooks

    return redaction_hooks.HOOKS


def memory_redact_all_versions(*, writer: Writer, store: Store, memory_id: str, reason: str = "") -> Memory:
    """Remove the text and path of every stored version of a deleted memory, for good.

    Bypasses history: the version rows are blanked in place with QuerySet.update, and so are
    the memory row and its set-aside texts. Who redacted, when and why stays on record.
    """

    def work() -> Memory:
        locked = _lock(store)
        memory = Memory.objects.select_for_update(no_key=True).filter(store=locked, public_id=memory_id).first()
        if memory is None:
            raise NotFound(f"No memory {memory_id} in store {locked.public_id}.")
        if memory.deleted_at is None:
            raise InvalidRequest(
                "Delete the memory first, then choose Redact all versions under Recently deleted.",
                code="memory_not_deleted",
            )
        _check(ChangeRequest(writer=writer, store=locked, operation="redact", old_path=memory.path, current=memory))
        if memory.redacted_at is not None:
            return memory
        # Every text the console holds of this memory, gathered before anything is blanked, so
        # the hooks can scrub quotes of any of them (old paths after renames included).
        texts = {memory.content, memory.path, memory.delete_reason}
        for content, path, delete_reason in memory.history.values_list("content", "path", "delete_reason"):
            texts |= {content, path, delete_reason}
        texts |= set(SetAside.objects.filter(memory=memory).values_list("text", flat=True))
        now = timezone.now()
        memory.history.update(
            **REDACTED_VERSION_FIELDS, version_redacted_at=now, version_redacted_by=writer.actor,
            history_change_reason=None,
        )
        redacted_by = dict(writer.actor)
        if reason:
            # The reason stays on record, so it must not quote what is being redacted (whole or a line).
            why = _safe_reason(reason)
            quotes = texts | {line.strip() for text in texts for line in text.splitlines()}
            for text in sorted((t for t in quotes if len(t) >= 8), key=len, reverse=True):
                why = why.replace(text, "[REDACTED:memory]")
            redacted_by["reason"] = why
        if memory.deleted_by_person:
            # Only a keyed fingerprint of the path stays, so runs that started before the delete still
            # cannot bring the memory back (the when-check); the path itself is gone.
            redacted_by[PATH_FINGERPRINT_KEY] = path_fingerprint(locked.pk, memory.path)
        Memory.objects.filter(pk=memory.pk).update(
            content="", path="", first_line="", content_sha256="", size_bytes=0, redacted_at=now,
            redacted_by=redacted_by, delete_reason="",
        )
        SetAside.objects.filter(memory=memory).update(text="", path="", status="dismissed")
        # The full-text index holds the text and path too (its entry row and the database's index).
        search_index_purge_memory(memory)
        for hook in _redact_hooks():
            hook(memory=memory, texts=[t for t in texts if t])
        logger.info("redacted all versions of memory %s in store %s", memory.public_id, locked.public_id)
        memory.refresh_from_db()
        return memory

    return _recording_refusals(work)


def version_redact(*, writer: Writer, store: Store, version_id: str):
    """Blank one version's text and path (admins, through the API). Repeating it changes nothing."""
    if not writer.is_admin:
        from stores.errors import PermissionDenied

        raise PermissionDenied("Only console admins redact versions.", code="not_a_hosted_agent" if writer.is_person else "people_only")
    with transaction.atomic():
        version = Memory.history.filter(version_id=version_id, store_id=store.pk).first()
        if version is None:
            raise NotFound(f"No version {version_id} in store {store.public_id}.")
        if version.version_redacted_at is None:
            Memory.history.filter(pk=version.pk).update(
                **REDACTED_VERSION_FIELDS, version_redacted_at=timezone.now(), version_redacted_by=writer.actor
            )
            version.refresh_from_db()
        return version
