"""Scrubbers for the copies of memory text the console side holds, run on every redaction.

The redaction service blanks the memory row, its versions and its set-aside texts, then calls
every registered hook. These reach what it does not: the store's cached snapshot (which a run
checkout may hold for a few seconds), refusal rows that quote the memory's path, and the
deletion reason each version row copied from the memory.
The console itself caches no memory text and queues no task carrying text (only ids), so there
is nothing else of its own to scrub.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.cache import cache
from django.db import transaction
from django.db.models import Q

from stores.models import Memory, Refusal
from stores.services import redaction_hooks
from stores.services.memories import snapshot_cache_key

REDACTED_QUOTE = "[REDACTED:memory]"


def forget_cached_snapshot(*, memory: Memory, texts: Iterable[str], **_: object) -> None:
    """Drop the store's cached snapshot now and again after commit, so no reader rebuilds it from a
    transaction that has not yet seen the redaction."""
    key = snapshot_cache_key(memory.store_id)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))


def scrub_refusals(*, memory: Memory, texts: Iterable[str], **_: object) -> None:
    """Blank refusal rows in the memory's store whose path or message quotes the redacted text.

    Refusals never hold the refused text, but they keep the path the change aimed at, and the
    message often names it; both go.
    """
    quoted = [t for t in texts if t]
    if not quoted:
        return
    match = Q(path__in=quoted)
    for text in quoted:
        if len(text) <= 1024:  # a path, or a short note that a message could quote whole
            match |= Q(message__contains=text)
    for refusal in Refusal.objects.filter(match, store_id=memory.store_id):
        message = refusal.message
        for text in sorted(quoted, key=len, reverse=True):
            message = message.replace(text, REDACTED_QUOTE)
        # The path joins a unique key (store, writer, path, sha, code), so a blanked path keeps
        # the row's own number to stay unique.
        path = f"{REDACTED_QUOTE}#{refusal.pk}" if refusal.path in quoted else refusal.path
        Refusal.objects.filter(pk=refusal.pk).update(path=path, message=message)


def blank_version_delete_reasons(*, memory: Memory, texts: Iterable[str], **_: object) -> None:
    """Blank the deletion reason every version row copied from the memory row.

    simple-history copies every column of the memory into its versions, including
    ``delete_reason``, which often says what was wrong with the text. Bypasses history on purpose
    (QuerySet.update), as the redaction service does for the other columns.
    """
    Memory.history.filter(id=memory.pk).exclude(delete_reason="").update(delete_reason="")


HOOKS = (forget_cached_snapshot, scrub_refusals, blank_version_delete_reasons)


def register_hooks() -> None:
    """Register the scrubbers once, however many times this is called."""
    for hook in HOOKS:
        if hook not in redaction_hooks.HOOKS:
            redaction_hooks.register(hook)
