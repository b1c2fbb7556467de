"""Every change to a memory: create, update (and rename), delete, restore, redact.

Each function locks the store row, asks the console's checks (one pipeline, every door),
writes one version with its actor, operation and reason, and returns the memory. A refusal
changes nothing in the store; it is recorded after the rollback (by the outermost boundary,
``refusals.recording_refusals``) and raised to the caller.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from stores.console_checks import what_client_detail
from stores.console_checks.pipeline import decide
from stores.console_checks.reasons import Reason
from stores.console_checks.request import ChangeRequest, ReadWithLock, Writer
from stores.errors import InvalidRequest, NotFound, PathConflict, Refused
from stores.ids import new_version_id
from stores.models import Memory, Store
from stores.operations import VERSION_OPERATION, Operation, VersionOperation
from stores.paths import segments_of
from stores.restore_window import is_restorable

from .change_notices import NOTICE_COLUMN, noticed_in_statement
from .content import first_line_of, sha256_hex
from .refusals import recording_refusals
from .search import search_index_memory
from .version_hooks import VersionWritten, version_written


def snapshot_cache_key(store_id: int) -> str:
    """The cache key of a store's snapshot (a run checkout may hold one for a few seconds)."""
    return f"store-snapshot:{store_id}"


def lock_store(store: Store) -> Store:
    """The store's row, locked for this transaction: every change to a store's memories takes it first.

    ``FOR NO KEY UPDATE``, so rows that only reference the store (a refusal, a set-aside) can still
    be inserted by others meanwhile.
    """
    return Store.objects.select_for_update(no_key=True).get(pk=store.pk)


def lock_store_taking_seq(store: Store) -> tuple[Store, ReadWithLock]:
    """The store's row, locked as ``lock_store`` locks it, with its change number already advanced,
    and what the checks would read beside it: one round trip instead of three (four in a project store);
    on PostgreSQL it also sends the notice of the new number (``change_notices.NOTICE_COLUMN``).

    For a change that writes a version whenever it is not refused (a create): a refusal rolls the
    number back with everything else. The ``UPDATE`` takes the same ``FOR NO KEY UPDATE`` lock and,
    on PostgreSQL, waits for a concurrent writer and then advances the number that writer committed,
    so numbers still commit in order.
    """
    table = Store._meta.db_table
    registry_version, own_client = what_client_detail.LOCK_READS
    # On PostgreSQL the same statement sends the notice of the new number to waiting readers (held back
    # until the commit, dropped with the number on a rollback), which the version's hook would send.
    postgresql = connection.vendor == "postgresql"
    notice = f", {NOTICE_COLUMN} AS lock_notice" if postgresql else ""
    rows = Store.objects.raw(
        f"UPDATE {table} SET change_seq = change_seq + 1 WHERE id = %s "
        f"RETURNING *, {registry_version} AS lock_registry_version, {own_client} AS lock_own_client{notice}",
        [store.pk],
    )
    locked = next(iter(rows), None)
    if locked is None:
        raise Store.DoesNotExist(f"No store with pk {store.pk}.")
    read = ReadWithLock(locked.__dict__.pop("lock_registry_version"), locked.__dict__.pop("lock_own_client"))
    if postgresql:
        locked.__dict__.pop("lock_notice")
        noticed_in_statement(locked)
    return locked, read


def check_change(req: ChangeRequest, set_aside: dict[str, Any] | None = None) -> None:
    """Ask the console's checks; raise Refused if they refuse (with the losing text of a stale base)."""
    decision = decide(req)
    if not decision.allowed:
        keep = set_aside if decision.code == Reason.STALE_BASE else None
        raise Refused(decision, req, set_aside=keep)


def _require_writable(store: Store) -> None:
    if store.archived_at is not None:
        raise InvalidRequest(
            f"The store '{store.name}' is archived: its memories can be read and deleted, not created or changed.",
            code=Reason.STORE_ARCHIVED,
        )


def _require_content(content: Any, *, field: str = "content") -> None:
    if not isinstance(content, str):
        raise InvalidRequest(f"`{field}` must be a string (use \"\" for an empty memory).")


def _conflict_q(path: str) -> Q:
    """The path itself, an ancestor of it, or a descendant of it (a file and a folder can't share a name)."""
    segments = segments_of(path)
    ancestors = ["/" + "/".join(segments[:i]) for i in range(1, len(segments))]
    return Q(path=path) | Q(path__in=ancestors) | Q(path__startswith=path + "/")


def live_and_conflicts(store: Store, path: str) -> dict[str, int]:
    """How many live memories ``store`` holds ("live") and how many are in the way of ``path`` ("conflicts").

    One round trip for both the path conflict and the per-store cap. Neither count names the id, so
    PostgreSQL can answer from the index of live paths alone, without reading each note's row. The
    statement is the one the ORM writes for ``.aggregate(live=Count("*"), conflicts=Count("path",
    filter=_conflict_q(path)))``, written out: composing it through the ORM costs more than running it.
    """
    segments = segments_of(path)
    ancestors = ["/" + "/".join(segments[:i]) for i in range(1, len(segments))]
    ops = connection.ops
    column = ops.quote_name("path")
    # The path itself, an ancestor of it (an empty list matches nothing and is left out, as the ORM does),
    # or a descendant of it: the lookups as the ORM writes them on this database.
    terms = [f"{column} = %s"]
    params: list[Any] = [path]
    if ancestors:
        terms.append(f"{column} IN ({', '.join(['%s'] * len(ancestors))})")
        params += ancestors
    terms.append(f"{ops.lookup_cast('startswith', 'CharField') % column} {connection.operators['startswith'] % '%s'}")
    params.append(f"{ops.prep_for_like_query(path + '/')}%")
    condition = " OR ".join(terms)
    conflicts = (f"COUNT({column}) FILTER (WHERE {condition})" if connection.features.supports_aggregate_filter_clause
                 else f"COUNT(CASE WHEN {condition} THEN {column} ELSE NULL END)")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT COUNT(*), {conflicts} FROM {ops.quote_name(Memory._meta.db_table)} "
            f"WHERE {ops.quote_name('deleted_at')} IS NULL AND {ops.quote_name('store_id')} = %s",
            [*params, store.pk],
        )
        live, conflicting = cursor.fetchone()
    return {"live": live, "conflicts": conflicting}


def path_conflict(store: Store, path: str, *, exclude_pk: int | None = None) -> Memory | None:
    """A live memory in the way of ``path``, if any."""
    live = Memory.objects.filter(store=store, deleted_at__isnull=True)
    if exclude_pk is not None:
        live = live.exclude(pk=exclude_pk)
    return live.filter(_conflict_q(path)).order_by("path").first()


def _raise_conflict(
    conflict: Memory, path: str, *, set_aside: dict[str, Any] | None = None, moving: Memory | None = None
) -> None:
    """Raise the 409 for ``path`` being in the way of ``conflict``; ``moving`` is the memory a rename moves."""
    if conflict.path == path and moving is not None:
        message = (
            f"Cannot rename memory {moving.public_id} to {path}: that path is taken by memory "
            f"{conflict.public_id}. Pick another path, or delete {conflict.public_id} first."
        )
    elif conflict.path == path:
        message = f"A memory already exists at {path}; update it by id instead of creating it again."
    elif path.startswith(conflict.path + "/"):
        message = f"{conflict.path} is a memory, so {path} cannot be placed below it."
    else:
        message = f"{path} is a folder holding {conflict.path}; a file and a folder cannot share a name."
    error = PathConflict(
        message,
        extra={"conflicting_path": conflict.path, "conflicting_memory_id": conflict.public_id},
    )
    error.set_aside = set_aside
    raise error


def _lost_create(conflict: Memory, path: str, content: str, writer: Writer) -> dict[str, Any] | None:
    """What a create that lost ``path`` to ``conflict`` keeps aside against it; None if nothing is lost.

    Whether the other memory was created a moment before (a race) or long ago (the writer did not
    look), the text is kept, so no text is dropped by a 409. It has no common ancestor with the
    memory it lost to: its base is empty. A resend of a create that did go through (its answer was
    lost) finds its own text saved and keeps nothing.
    """
    if conflict.path == path and conflict.content == content:
        return None
    return {
        "memory_pk": conflict.pk,
        "path": path,
        "text": content,
        "base_sha256": "",
        "base_version_id": "",
        "lost_to_version_id": conflict.head_version_id,
        "writer_key": writer.key,
        "actor": writer.actor,
    }


def _save_version(
    memory: Memory, store: Store, writer: Writer, change: str, reason: str = "", provenance: dict[str, Any] | None = None,
    *, seq_taken: bool = False,
) -> None:
    """Advance the store's change number and save the memory, which writes one version row (its
    operation the one ``change`` writes, ``VERSION_OPERATION``; ``provenance`` where its text came from).

    ``seq_taken``: the lock advanced the number already (``lock_store_taking_seq``).
    """
    operation = VERSION_OPERATION[change]
    if not seq_taken:
        store.change_seq += 1
        Store.objects.filter(pk=store.pk).update(change_seq=store.change_seq)
    memory.change_seq = store.change_seq
    memory.head_version_id = new_version_id()
    memory._version_meta = {
        "operation": operation,
        "actor": writer.actor,
        "run_public_id": writer.run.public_id if writer.run else "",
        "api_key_id": writer.api_key_id,
        "provenance": provenance,
    }
    # The version's reason field scrubs any secret pasted into it as it is saved.
    memory._change_reason = reason or None
    memory._history_user = writer.user if writer.is_person else None
    memory.save()
    # The search index follows every version in the same transaction, so it never lags a write.
    search_index_memory(memory, writer_name=writer.name, run_public_id=writer.run.public_id if writer.run else "")
    version_written(VersionWritten(memory, store, writer, operation, memory.head_version_id))


def _get_live(store: Store, memory_id: str, *, for_update: bool = True) -> Memory:
    qs = Memory.objects.select_for_update(no_key=True) if for_update else Memory.objects
    memory = qs.filter(store=store, public_id=memory_id, deleted_at__isnull=True).first()
    if memory is None:
        raise NotFound(f"No memory {memory_id} in store {store.public_id}.")
    return memory


def memory_create(
    *, writer: Writer, store: Store, path: Any, content: Any, reason: str = "", provenance: dict[str, Any] | None = None
) -> Memory:
    """Create a memory at a new path. Never overwrites: a taken path is a 409 conflict.

    ``provenance`` (ids only) is kept on the first version when the text came from elsewhere (a promotion).
    """

    def work() -> Memory:
        # A create writes a version unless it is refused (which rolls everything back), so it takes
        # the next change number as it locks the store, and reads what the checks need beside it.
        locked, read = lock_store_taking_seq(store)
        _require_writable(locked)
        _require_content(content)
        if not isinstance(path, str):
            raise InvalidRequest("`path` must be a string such as /conventions/naming.md.")
        check_change(ChangeRequest(
            writer=writer, store=locked, operation=Operation.CREATE, path=path, content=content, read_with_lock=read,
        ))
        counts = live_and_conflicts(locked, path)
        if counts["conflicts"]:
            conflict = path_conflict(locked, path)
            _raise_conflict(conflict, path, set_aside=_lost_create(conflict, path, content, writer))
        limit = settings.MEMORY_STORE_MAX_MEMORIES
        if counts["live"] >= limit:
            raise InvalidRequest(
                f"The store '{locked.name}' already holds {limit} memories, its limit. "
                "Fold related notes together or delete stale ones first.",
                code=Reason.STORE_FULL,
            )
        now = timezone.now()
        memory = Memory(
            store=locked,
            path=path,
            content=content,
            content_sha256=sha256_hex(content),
            size_bytes=len(content.encode("utf-8")),
            first_line=first_line_of(content),
            created_at=now,
            updated_at=now,
        )
        _save_version(memory, locked, writer, Operation.CREATE, reason, provenance, seq_taken=True)
        return memory

    return recording_refusals(work)


def memory_update(
    *,
    writer: Writer,
    store: Store,
    memory_id: str,
    content: Any = None,
    path: Any = None,
    base_sha256: str | None = None,
    reason: str = "",
    operation: str = Operation.UPDATE,
) -> tuple[Memory, bool]:
    """Change a memory's content and/or path. Returns the memory and whether a version was written.

    A precondition on an old copy loses to the saved copy (409 stale_base) and its text is kept
    aside once. A request that matches what is saved already returns 200 and writes nothing,
    which makes client retries safe.
    """
    if content is None and path is None:
        raise InvalidRequest("Send `content`, `path` or both: an update needs something to change.")

    def work() -> tuple[Memory, bool]:
        locked = lock_store(store)
        memory = _get_live(locked, memory_id)
        _require_writable(locked)
        if content is not None:
            _require_content(content)
        if path is not None and not isinstance(path, str):
            raise InvalidRequest("`path` must be a string such as /conventions/naming.md.")
        new_path = path if path is not None else None
        req = ChangeRequest(
            writer=writer,
            store=locked,
            operation=operation,  # type: ignore[arg-type]
            path=new_path if new_path is not None else memory.path,
            old_path=memory.path,
            content=content,
            base_sha256=base_sha256,
            current=memory,
        )
        set_aside = None
        if content is not None and base_sha256 is not None:
            set_aside = {
                "memory_pk": memory.pk,
                "path": memory.path,
                "text": content,
                "base_sha256": base_sha256,
                "base_version_id": _version_with_sha(memory, base_sha256),
                "lost_to_version_id": memory.head_version_id,
                "writer_key": writer.key,
                "actor": writer.actor,
            }
        check_change(req, set_aside)
        changed_content = content is not None and content != memory.content
        changed_path = new_path is not None and new_path != memory.path
        if not changed_content and not changed_path:
            return memory, False
        if changed_path:
            conflict = path_conflict(locked, new_path, exclude_pk=memory.pk)
            if conflict is not None:
                # The new text was meant for this memory: kept aside against it, written on its saved copy.
                kept = None
                if changed_content:
                    kept = {
                        "memory_pk": memory.pk,
                        "path": new_path,
                        "text": content,
                        "base_sha256": memory.content_sha256,
                        "base_version_id": memory.head_version_id,
                        "lost_to_version_id": memory.head_version_id,
                        "writer_key": writer.key,
                        "actor": writer.actor,
                    }
                _raise_conflict(conflict, new_path, set_aside=kept, moving=memory)
            memory.path = new_path
        if changed_content:
            memory.content = content
            memory.content_sha256 = sha256_hex(content)
            memory.size_bytes = len(content.encode("utf-8"))
            memory.first_line = first_line_of(content)
        memory.updated_at = timezone.now()
        _save_version(memory, locked, writer, operation, reason)
        return memory, True

    return recording_refusals(work)


def _version_with_sha(memory: Memory, sha: str) -> str:
    version = (
        memory.history.filter(content_sha256=sha).exclude(operation=VersionOperation.DELETED).order_by("-history_id").first()
    )
    return version.version_id if version else ""


def memory_delete(
    *, writer: Writer, store: Store, memory_id: str, expected_sha256: str | None = None, reason: str = ""
) -> Memory:
    """Delete a memory at once. The row stays (for restore within 30 days); the delete is a version."""

    def work() -> Memory:
        locked = lock_store(store)
        memory = _get_live(locked, memory_id)
        check_change(
            ChangeRequest(
                writer=writer,
                store=locked,
                operation=Operation.DELETE,
                old_path=memory.path,
                base_sha256=expected_sha256,
                current=memory,
            )
        )
        now = timezone.now()
        memory.deleted_at = now
        memory.deleted_by = writer.actor
        memory.deleted_by_person = writer.is_person
        memory.delete_reason = reason or ""  # scrubbed by the field as it is saved
        memory.updated_at = now
        _save_version(memory, locked, writer, Operation.DELETE, reason)
        return memory

    result = recording_refusals(work)
    _after_commit_forget(result)
    return result


def _after_commit_forget(memory: Memory) -> None:
    """Drop any cached copy of the store's listing so readers stop seeing the memory at once."""
    key = snapshot_cache_key(memory.store_id)
    transaction.on_commit(lambda: cache.delete(key))


def deleted_memory(store: Store, memory_id: str) -> Memory:
    memory = Memory.objects.filter(store=store, public_id=memory_id, deleted_at__isnull=False).first()
    if memory is None:
        raise NotFound(f"No deleted memory {memory_id} in store {store.public_id}.")
    return memory


def memory_restore(*, writer: Writer, store: Store, memory_id: str, reason: str = "") -> Memory:
    """Bring a memory deleted in the last 30 days back, with its id, as a new version.

    Refused, changing nothing, when another memory now holds the path (or an ancestor or
    descendant of it), when it was redacted, or when the 30 days have passed.
    """

    def work() -> Memory:
        locked = lock_store(store)
        memory = Memory.objects.select_for_update(no_key=True).filter(
            store=locked, public_id=memory_id, deleted_at__isnull=False
        ).first()
        if memory is None:
            raise NotFound(f"No deleted memory {memory_id} in store {locked.public_id}.")
        if memory.redacted_at is not None:
            raise InvalidRequest("This memory was redacted: its text is gone and it cannot be restored.",
                                 code=Reason.MEMORY_REDACTED)
        if not is_restorable(memory):
            raise InvalidRequest(
                f"This memory was deleted more than {settings.RECENTLY_DELETED_DAYS} days ago and can no longer be restored.",
                code=Reason.RESTORE_WINDOW_PASSED,
            )
        _require_writable(locked)
        check_change(
            ChangeRequest(
                writer=writer, store=locked, operation=Operation.RESTORE, path=memory.path, content=memory.content,
            )
        )
        conflict = path_conflict(locked, memory.path, exclude_pk=memory.pk)
        if conflict is not None:
            raise PathConflict(
                f"Restore refused: {conflict.path} ({conflict.public_id}) now exists "
                f"{'at the same path' if conflict.path == memory.path else 'in the way of ' + memory.path}. "
                "Delete that memory first (or have its writer rename it), then restore this one.",
                code=Reason.PATH_TAKEN,
                extra={"conflicting_path": conflict.path, "conflicting_memory_id": conflict.public_id},
            )
        now = timezone.now()
        memory.deleted_at = None
        memory.deleted_by = None
        memory.deleted_by_person = False
        memory.delete_reason = ""
        memory.updated_at = now
        _save_version(memory, locked, writer, Operation.RESTORE, reason or "restored")
        return memory

    return recording_refusals(work)
