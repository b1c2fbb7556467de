"""Set-aside texts: a person uses one (it becomes a new version, through the checks) or dismisses it.

The console pages and the people's API call these same functions, so both doors behave alike.
"""

from __future__ import annotations

from django.utils import timezone

from stores.console_checks.pipeline import decide
from stores.console_checks.reasons import Reason
from stores.console_checks.request import ChangeRequest, Writer
from stores.errors import Conflict, InvalidRequest, NotFound, Refused
from stores.models import SetAside, SetAsideStatus, Store
from stores.operations import Operation

from .memories import lock_store, memory_update
from .refusals import recording_refusals


def require_open(set_aside: SetAside | None, *, store: Store, set_aside_id: str) -> SetAside:
    """The set-aside text looked up as ``set_aside_id``, if it exists and is still open.

    A missing one answers 404; a used or dismissed one answers 409 with who did it, so every
    caller (use, dismiss, merge) refuses alike.
    """
    if set_aside is None:
        raise NotFound(f"No set-aside text {set_aside_id} in store {store.public_id}.")
    if set_aside.status != SetAsideStatus.OPEN:
        who = (set_aside.resolved_by or {}).get("name", "someone")
        raise Conflict(
            f"This set-aside text was already {set_aside.get_status_display().lower()} by {who}.",
            code=Reason.SET_ASIDE_RESOLVED,
        )
    return set_aside


def _open_set_aside(store: Store, set_aside_id: str) -> SetAside:
    """The set-aside text, locked; a used or dismissed one answers 409 with what happened to it.

    The store row is locked first, in the same order as the memory and redaction services, so a
    redaction running at the same moment waits instead of deadlocking.
    """
    lock_store(store)
    set_aside = (
        SetAside.objects.select_for_update()
        .select_related("memory")
        .filter(store=store, public_id=set_aside_id)
        .first()
    )
    return require_open(set_aside, store=store, set_aside_id=set_aside_id)


def set_aside_use(*, writer: Writer, store: Store, set_aside_id: str) -> SetAside:
    """Make the set-aside text the memory's new content, written by ``writer`` through the checks.

    Marks the set-aside used, with who, when and the version it became. A refusal by the checks
    is recorded and raised, and nothing else changes: the set-aside stays open.
    """

    def work() -> SetAside:
        set_aside = _open_set_aside(store, set_aside_id)
        if set_aside.memory.deleted_at is not None:
            raise InvalidRequest(
                f"{set_aside.path} was deleted; restore it from Recently deleted first, then use this text.",
                code=Reason.MEMORY_DELETED,
            )
        return set_aside_fold_in(
            writer=writer, store=store, set_aside=set_aside, content=set_aside.text,
            reason=f"used set-aside text {set_aside.public_id}",
        )

    return recording_refusals(work)


def set_aside_fold_in(*, writer: Writer, store: Store, set_aside: SetAside, content: str, reason: str) -> SetAside:
    """Save ``content`` (the set-aside text, or a merge of it) over its memory and mark the set-aside used.

    Runs inside the caller's transaction and boundary: a refusal rolls the whole change back and is
    recorded once, by the outer boundary.
    """
    memory, _changed = memory_update(
        writer=writer,
        store=store,
        memory_id=set_aside.memory.public_id,
        content=content,
        reason=reason,
        operation=Operation.SET_ASIDE_USE,
    )
    set_aside.status = SetAsideStatus.USED
    set_aside.resolved_by = writer.actor
    set_aside.resolved_at = timezone.now()
    set_aside.resolved_version_id = memory.head_version_id
    set_aside.save(update_fields=["status", "resolved_by", "resolved_at", "resolved_version_id"])
    return set_aside


def set_aside_dismiss(*, writer: Writer, store: Store, set_aside_id: str) -> SetAside:
    """Dismiss a set-aside text: the saved copy stays as it is; who dismissed it and when is kept."""

    def work() -> SetAside:
        set_aside = _open_set_aside(store, set_aside_id)
        request = ChangeRequest(writer=writer, store=store, operation=Operation.SET_ASIDE_DISMISS, old_path=set_aside.path)
        decision = decide(request)
        if not decision.allowed:
            raise Refused(decision, request)
        set_aside.status = SetAsideStatus.DISMISSED
        set_aside.resolved_by = writer.actor
        set_aside.resolved_at = timezone.now()
        set_aside.save(update_fields=["status", "resolved_by", "resolved_at"])
        return set_aside

    return recording_refusals(work)
