"""A person's own changes to a memory: edit (with rename) on the version they opened, and revert.

Both write through ``memory_update``, so through the one checks pipeline, as the person, with
their reason kept on the version. Creating a file is ``memory_create`` itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from stores.console_checks.reasons import Reason
from stores.console_checks.request import Writer
from stores.errors import InvalidRequest, NotFound, Refused
from stores.models import Memory, SetAside, Store
from stores.operations import Operation

from .memories import memory_update

REASON_MAX = 2000


@dataclass(frozen=True)
class EditResult:
    """What became of an edit: saved (``changed``), nothing to save, or lost to a newer save.

    When another writer saved after the person opened the file, the saved copy stays,
    ``memory`` is that saved copy and ``set_aside`` holds the person's text, kept aside like any
    losing write, for them to merge.
    """

    memory: Memory
    changed: bool
    set_aside: SetAside | None = None

    @property
    def lost(self) -> bool:
        return self.set_aside is not None


def _live_memory(store: Store, memory_id: str) -> Memory:
    memory = Memory.objects.filter(store=store, public_id=memory_id, deleted_at__isnull=True).first()
    if memory is None:
        raise NotFound(f"No memory {memory_id} in store {store.public_id}: it may have been deleted meanwhile.")
    return memory


def _version_of(memory: Memory, version_id: str):
    version = memory.history.filter(version_id=version_id).first()
    if version is None:
        raise InvalidRequest(
            f"{version_id or 'No version'} is not a version of {memory.public_id}; open the file again.",
            code=Reason.UNKNOWN_VERSION,
        )
    return version


def memory_edit(
    *,
    writer: Writer,
    store: Store,
    memory_id: str,
    opened_version_id: str,
    content: str,
    path: str | None = None,
    reason: str = "",
) -> EditResult:
    """Save a person's edit of a memory, made on the version ``opened_version_id``.

    The precondition is the text of the version the person opened: if another writer saved a
    different text since, the saved copy stays and the person's text is kept aside (returned in
    ``set_aside``). A path different from the opened version's renames or moves the file within the
    store; a path left as it was never undoes a rename made meanwhile. Any other refusal by the
    checks is raised as ``Refused``, and nothing changes.
    """
    memory = _live_memory(store, memory_id)
    opened = _version_of(memory, opened_version_id)
    content_changed = content != opened.content
    new_path = path if path and path != opened.path else None
    if not content_changed and new_path is None:
        return EditResult(memory=memory, changed=False)
    # A rename alone cannot lose anyone's text, so only a text change carries the precondition.
    base = opened.content_sha256 if content_changed else None
    try:
        saved, changed = memory_update(
            writer=writer,
            store=store,
            memory_id=memory.public_id,
            content=content if content_changed else None,
            path=new_path,
            base_sha256=base,
            reason=reason,
        )
    except Refused as refused:
        if refused.code != Reason.STALE_BASE:
            raise
        # The refusal boundary kept the text aside and named it in the refusal's details.
        set_aside = SetAside.objects.filter(public_id=refused.details.get("set_aside_id", "")).first()
        memory.refresh_from_db()
        return EditResult(memory=memory, changed=False, set_aside=set_aside)
    return EditResult(memory=saved, changed=changed)


def memory_revert(
    *, writer: Writer, store: Store, memory_id: str, version_id: str, reason: str = ""
) -> tuple[Memory, bool]:
    """Bring an older version's text back as a new version, through the checks, written by ``writer``.

    Returns the memory and whether a version was written (none when the text is already the
    saved one). A redacted version cannot be reverted to; a text the checks would now refuse is
    raised as ``Refused``, and nothing changes. The path stays as it is: a revert brings back text.
    """
    memory = Memory.objects.filter(store=store, public_id=memory_id).first()
    if memory is None:
        raise NotFound(f"No memory {memory_id} in store {store.public_id}.")
    if memory.redacted_at is not None:
        raise InvalidRequest("This memory was redacted: no version of it can be reverted to.", code=Reason.VERSION_REDACTED)
    if memory.deleted_at is not None:
        raise InvalidRequest(
            f"{memory.path} is deleted; restore it from Recently deleted first, then revert it.", code=Reason.MEMORY_DELETED
        )
    version = memory.history.filter(version_id=version_id).first()
    if version is None:
        raise NotFound(f"No version {version_id} of memory {memory_id}.")
    if version.version_redacted_at is not None:
        raise InvalidRequest(
            f"Version {version_id} was redacted: its text is gone, so it cannot be reverted to.", code=Reason.VERSION_REDACTED
        )
    why = f"reverted to {version_id}" + (f": {reason}" if reason else "")
    return memory_update(
        writer=writer,
        store=store,
        memory_id=memory.public_id,
        content=version.content,
        reason=why[:REASON_MAX],
        operation=Operation.REVERT,
    )
