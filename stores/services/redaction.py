"""Redaction: removing a memory's text for good, from every copy the console keeps.

``REACH`` is the one list of those copies: each entry names where memory text (or a hash of it)
lives and the function that blanks it, and ``memory_redact_all_versions`` calls them all, in
order, inside its transaction. A test compares this list with every text column of every model,
so a new model that holds memory text (a search index, review proposals, promotion drafts) fails
it until it is added here. The functions bypass history on purpose (QuerySet.update).

After the redaction commits, the tables it touched get a plain ``VACUUM`` as a follow-up job
through the outbox, so the dead row versions holding the old text go from the tables' pages soon
rather than whenever autovacuum comes by; the redaction never waits on it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.apps import apps
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import Q
from django.utils import timezone

from schedule.outbox import enqueue_on_commit
from stores.console_checks.reasons import Reason
from stores.console_checks.request import ChangeRequest, Writer
from stores.console_checks.when import PATH_FINGERPRINT_KEY, path_fingerprint
from stores.errors import Conflict, InvalidRequest, NotFound
from stores.models import Memory, Promotion, PromotionDecision, Refusal, SetAside, SetAsideStatus, Store
from stores.operations import Operation

from .content import keyed_fingerprint
from .memories import check_change, lock_store, snapshot_cache_key
from .refusals import recording_refusals
from .search import search_index_purge_memory
from .stores import require_console_admin

logger = logging.getLogger(__name__)

REDACTED_QUOTE = "[REDACTED:memory]"
# Shorter texts are too common to scrub everywhere they appear (a memory that reads "done" must
# not wipe every "done" from every transcript), so only whole texts of 8 or more characters and
# lines of 20 or more count as quotes of a redacted memory.
MIN_QUOTE_CHARS = 8
MIN_LINE_CHARS = 20


def quotes_of(texts: Iterable[object]) -> list[str]:
    """The whole texts and their longer lines, longest first, so a whole quote goes before its parts."""
    quotes: set[str] = set()
    for text in texts:
        if not isinstance(text, str):
            continue
        if len(text.strip()) >= MIN_QUOTE_CHARS:
            quotes.add(text)
            quotes.add(text.strip())
        for line in text.splitlines():
            if len(line.strip()) >= MIN_LINE_CHARS:
                quotes.add(line.strip())
    return sorted(quotes, key=len, reverse=True)


# A passage of a redacted text quoted in part (a record that quoted a note's first words, a
# person's name among them) is found as a run of PASSAGE_WORDS consecutive words of one of its
# texts, spanning MIN_LINE_CHARS or more. Six, because runs of four or five words are stock
# phrases that unrelated texts share ("at the end of the", "as soon as possible", "in the
# dbt project"), and scrubbing them would blank ordinary transcripts; two independent texts
# rarely share six words in a row (the reason text-reuse detection compares shingles of five to
# ten words), and six still catches a name with the few words quoted around it.
PASSAGE_WORDS = 6
_WORD = re.compile(r"\w+")


def _shingle_key(words: Sequence[str]) -> tuple[str, ...]:
    return tuple(w.casefold() for w in words)


@dataclass(frozen=True)
class RedactedTexts:
    """What of a redacted memory's texts is replaced wherever it is found: the whole texts and
    their longer lines (``quotes_of``), and any run of ``PASSAGE_WORDS`` words of one of them."""

    quotes: list[str]
    shingles: frozenset[tuple[str, ...]]

    def replace(self, value: Any) -> Any:
        """``value`` (text, or JSON of lists and dicts, keys included) with every quote and passage replaced."""
        if isinstance(value, str):
            return _replace_passages(replace_quotes(value, self.quotes), self.shingles)
        if isinstance(value, list):
            return [self.replace(item) for item in value]
        if isinstance(value, dict):
            return {self.replace(k): self.replace(v) for k, v in value.items()}
        return value


def _passages(text: str) -> Iterator[tuple[str, ...]]:
    """The key of each run of ``PASSAGE_WORDS`` words of ``text`` spanning ``MIN_LINE_CHARS`` or more."""
    words = list(_WORD.finditer(text))
    for i in range(len(words) - PASSAGE_WORDS + 1):
        first, last = words[i], words[i + PASSAGE_WORDS - 1]
        if last.end() - first.start() >= MIN_LINE_CHARS:
            yield _shingle_key([m.group() for m in words[i : i + PASSAGE_WORDS]])


def redacted_texts(texts: Iterable[object]) -> RedactedTexts:
    """The quotes and passages of a redacted memory's ``texts``."""
    texts = [t for t in texts if isinstance(t, str)]
    shingles = {key for text in texts for key in _passages(text)}
    return RedactedTexts(quotes=quotes_of(texts), shingles=frozenset(shingles))


def _replace_passages(text: str, shingles: frozenset[tuple[str, ...]]) -> str:
    """``text`` with each stretch of overlapping ``PASSAGE_WORDS``-word runs found in ``shingles`` replaced once."""
    if not shingles or not text:
        return text
    words = list(_WORD.finditer(text))
    spans: list[list[int]] = []
    for i in range(len(words) - PASSAGE_WORDS + 1):
        if _shingle_key([m.group() for m in words[i : i + PASSAGE_WORDS]]) in shingles:
            start, end = words[i].start(), words[i + PASSAGE_WORDS - 1].end()
            if spans and start <= spans[-1][1]:
                spans[-1][1] = end
            else:
                spans.append([start, end])
    for start, end in reversed(spans):
        text = text[:start] + REDACTED_QUOTE + text[end:]
    return text


def replace_quotes(value: Any, quotes: list[str]) -> Any:
    """``value`` (text, or JSON of lists and dicts, keys included) with every quote replaced."""
    if isinstance(value, str):
        for quote in quotes:
            if quote in value:
                value = value.replace(quote, REDACTED_QUOTE)
        return value
    if isinstance(value, list):
        return [replace_quotes(item, quotes) for item in value]
    if isinstance(value, dict):
        return {replace_quotes(k, quotes): replace_quotes(v, quotes) for k, v in value.items()}
    return value
REDACTED_VERSION_FIELDS = {
    "content": "", "path": "", "content_sha256": "", "size_bytes": 0, "first_line": "", "delete_reason": "",
}
# The purposes of the keyed fingerprints a redacted set-aside keeps in place of its hashes: the
# row stays unique (one per writer, memory, base and text) without a hash that confirms a guess.
SET_ASIDE_TEXT_FINGERPRINT = "set-aside-text"
SET_ASIDE_BASE_FINGERPRINT = "set-aside-base"
VACUUM_TASK = "stores.tasks.vacuum_after_redaction_task"


@dataclass
class Redaction:
    """One redaction under way: the memory (read before anything was blanked) and all its texts."""

    memory: Memory
    store: Store
    writer: Writer
    now: datetime
    texts: list[str] = field(default_factory=list)
    reason: str = ""  # the person's reason, kept with the redaction


@dataclass(frozen=True)
class Reach:
    """One place the console keeps copies of memory text, and the call that blanks them.

    ``holder`` is a model label ("stores.Memory") or, for what is not a table, a name of its own
    ("cache:..."); ``fields`` are the holder's columns that carry memory text or a hash of it.
    """

    holder: str
    fields: tuple[str, ...]
    scrub: Callable[[Redaction], Any]

    @property
    def table(self) -> str | None:
        """The database table of a model holder (None for a cache)."""
        if self.holder.startswith("cache:"):
            return None
        return apps.get_model(self.holder)._meta.db_table


def _blank_versions(r: Redaction) -> None:
    """Every version row: text, path, hash, first line, deletion reason and change reason."""
    r.memory.history.update(
        **REDACTED_VERSION_FIELDS, version_redacted_at=r.now, version_redacted_by=r.writer.actor,
        history_change_reason=None,
    )


def _blank_memory_row(r: Redaction) -> None:
    """The memory row itself; who redacted it and when stay on record."""
    redacted_by = dict(r.writer.actor)
    if r.reason:
        redacted_by["reason"] = _reason_without_quotes(r.reason, r.texts)
    if r.memory.deleted_by_person:
        # Only a keyed fingerprint of the path stays, so runs that started before the delete still
        # cannot bring the memory back (the when-check); the path itself is gone.
        redacted_by[PATH_FINGERPRINT_KEY] = path_fingerprint(r.store.pk, r.memory.path)
    Memory.objects.filter(pk=r.memory.pk).update(
        content="", path="", first_line="", content_sha256="", size_bytes=0, redacted_at=r.now,
        redacted_by=redacted_by, delete_reason="",
    )


def _reason_without_quotes(reason: str, texts: list[str]) -> str:
    """The reason with any quote of the redacted texts (whole, or one of their lines) replaced: it
    stays on record after the text is gone (its secrets go as it is saved: ``redacted_by`` scrubs it)."""
    why = reason
    quotes = set(texts) | {line.strip() for text in texts for line in text.splitlines()}
    for text in sorted((t for t in quotes if len(t) >= 8), key=len, reverse=True):
        why = why.replace(text, REDACTED_QUOTE)
    return why


def _purge_search_index(r: Redaction) -> None:
    """The full-text search index: its entry row and the database's own index (FTS5 on SQLite)."""
    search_index_purge_memory(r.memory)


def _blank_set_asides(r: Redaction) -> None:
    """The texts kept aside against the memory (lost updates and lost creates alike).

    Their hashes become keyed fingerprints: an unkeyed SHA-256 of a short text confirms a guess.
    """
    for pk, text_sha, base_sha in SetAside.objects.filter(memory=r.memory).values_list(
        "pk", "text_sha256", "base_sha256"
    ):
        SetAside.objects.filter(pk=pk).update(
            text="", path="", status=SetAsideStatus.DISMISSED,
            text_sha256=keyed_fingerprint(SET_ASIDE_TEXT_FINGERPRINT, text_sha),
            base_sha256=keyed_fingerprint(SET_ASIDE_BASE_FINGERPRINT, base_sha),
        )


def _scrub_refusals(r: Redaction) -> None:
    """Refusal rows in the memory's store whose path or message quotes one of the texts.

    Refusals never hold the refused text (only a keyed fingerprint of it), but they keep the path
    the change aimed at, and the message often names it; both go.
    """
    quoted = [t for t in r.texts if t]
    if not quoted:
        return
    match = Q(path__in=quoted)
    for text in quoted:
        if len(text) <= 1024:  # a path, or a short note that a message could quote whole
            match |= Q(message__contains=text)
    for refusal in Refusal.objects.filter(match, store_id=r.memory.store_id):
        message = refusal.message
        for text in sorted(quoted, key=len, reverse=True):
            message = message.replace(text, REDACTED_QUOTE)
        # The path joins a unique key (store, writer, path, fingerprint, code), so a blanked path
        # keeps the row's own number to stay unique.
        path = f"{REDACTED_QUOTE}#{refusal.pk}" if refusal.path in quoted else refusal.path
        Refusal.objects.filter(pk=refusal.pk).update(path=path, message=message)


def _promotions_of(memory: Memory):
    return Promotion.objects.filter(Q(source_memory=memory) | Q(landed_memory=memory))


def _blank_promotions(r: Redaction) -> None:
    """Promotions proposed from the memory or landed as it: their text and paths go; the reasons
    and a failure's message stay on record with any quote of the texts replaced."""
    for promotion in _promotions_of(r.memory):
        Promotion.objects.filter(pk=promotion.pk).update(
            text="", path="", source_path="",
            reason=_reason_without_quotes(promotion.reason, r.texts),
            failure_message=_reason_without_quotes(promotion.failure_message, r.texts),
        )


def _scrub_promotion_decisions(r: Redaction) -> None:
    """The approvals' and refusals' reasons of those promotions, with any quote of the texts replaced."""
    for decision in PromotionDecision.objects.filter(promotion__in=_promotions_of(r.memory)):
        why = _reason_without_quotes(decision.reason, r.texts)
        if why != decision.reason:
            PromotionDecision.objects.filter(pk=decision.pk).update(reason=why)


# Copies kept by the apps above this one (runs' records, reviews' proposals) are named on REACH
# here, so this list stays the one place that names every copy; each app hands in the function
# that blanks its copies from its AppConfig.ready().
_scrubbers: dict[str, list[Callable[..., Any]]] = {}
# The holders whose copies an app above blanks: a redaction refuses to run without their scrubbers.
REGISTERED_HOLDERS = ("runs.RunRecord", "reviews.ReviewProposal")


def register_scrubber(holder: str, scrub: Callable[..., Any]) -> None:
    """Called once by the app that keeps ``holder`` (a REACH holder): ``scrub(memory=..., texts=...)``
    blanks that app's copies of a memory being redacted (``texts``: every text it had)."""
    if holder not in REGISTERED_HOLDERS:
        raise ValueError(f"{holder} is not a holder on REACH that an app fills in; add it to REGISTERED_HOLDERS.")
    scrubbers = _scrubbers.setdefault(holder, [])
    if scrub not in scrubbers:
        scrubbers.append(scrub)


def register_run_record_scrubber(scrub: Callable[..., Any]) -> None:
    """Called once by the runs app: ``scrub(memory=..., texts=...)`` blanks quotes in run records."""
    register_scrubber("runs.RunRecord", scrub)


def _registered(holder: str) -> Callable[[Redaction], None]:
    """The scrub of a REACH entry whose copies another app keeps: every scrubber it registered."""

    def scrub(r: Redaction) -> None:
        scrubbers = _scrubbers.get(holder)
        if not scrubbers:
            # A redaction that cannot reach a copy must not report success.
            raise RuntimeError(f"No scrubber is registered for {holder}; its app's ready() registers it.")
        for one in scrubbers:
            one(memory=r.memory, texts=r.texts)

    scrub.__name__ = f"_scrub_{holder.replace('.', '_').lower()}"
    scrub.__doc__ = f"The copies {holder} keeps, blanked by the scrubber its app registered."
    return scrub


def _forget_cached_snapshot(r: Redaction) -> None:
    """The store's cached snapshot, now and again after commit, so no reader rebuilds it from a
    transaction that has not yet seen the redaction."""
    key = snapshot_cache_key(r.memory.store_id)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))


# Every copy of memory text the console keeps, in the order a redaction blanks them.
REACH: tuple[Reach, ...] = (
    Reach(
        "stores.HistoricalMemory",
        ("path", "content", "content_sha256", "first_line", "delete_reason", "history_change_reason"),
        _blank_versions,
    ),
    Reach("stores.Memory", ("path", "content", "content_sha256", "first_line", "delete_reason"), _blank_memory_row),
    Reach("stores.SetAside", ("path", "text", "text_sha256", "base_sha256"), _blank_set_asides),
    Reach("stores.Refusal", ("path", "message"), _scrub_refusals),
    Reach("stores.SearchEntry", ("path", "body"), _purge_search_index),
    Reach("stores.Promotion", ("text", "path", "source_path", "reason", "failure_message"), _blank_promotions),
    Reach("stores.PromotionDecision", ("reason",), _scrub_promotion_decisions),
    # The run-record search index is the database's own and follows each record as it is scrubbed (runs 0003).
    Reach("runs.RunRecord", ("transcript", "events"), _registered("runs.RunRecord")),
    Reach(
        "reviews.ReviewProposal",
        ("paths", "evidence", "proposed_text", "base", "refusal_message"),
        _registered("reviews.ReviewProposal"),
    ),
    Reach("cache:store-snapshot", (), _forget_cached_snapshot),
)


def reach_tables() -> list[str]:
    """The tables a redaction writes to, which its follow-up VACUUM covers."""
    return sorted({reach.table for reach in REACH if reach.table})


def _texts_of(memory: Memory) -> list[str]:
    """Every text the console holds of this memory, gathered before anything is blanked, so the
    scrubbers can find quotes of any of them (old paths after renames included)."""
    texts = {memory.content, memory.path, memory.delete_reason}
    for content, path, reason in memory.history.values_list("content", "path", "delete_reason"):
        texts |= {content, path, reason}
    texts |= set(SetAside.objects.filter(memory=memory).values_list("text", flat=True))
    texts |= set(SetAside.objects.filter(memory=memory).values_list("path", flat=True))
    for text, path, source_path in _promotions_of(memory).values_list("text", "path", "source_path"):
        texts |= {text, path, source_path}
    return [t for t in texts if t]


def memory_redact_all_versions(*, writer: Writer, store: Store, memory_id: str, reason: str = "") -> Memory:
    """Remove the text and path of every stored copy of a deleted memory, for good.

    Calls every entry of ``REACH`` in its transaction, then asks for a VACUUM of the tables it
    touched once it has committed. Who redacted, when and why (``reason``, never quoting the
    text) stays on record. Repeating it changes nothing.
    """

    def work() -> Memory:
        locked = lock_store(store)
        memory = Memory.objects.select_for_update(no_key=True).filter(store=locked, public_id=memory_id).first()
        if memory is None:
            raise NotFound(f"No memory {memory_id} in store {locked.public_id}.")
        if memory.deleted_at is None:
            raise InvalidRequest(
                "Delete the memory first, then choose Redact all versions under Recently deleted.",
                code=Reason.MEMORY_NOT_DELETED,
            )
        check_change(
            ChangeRequest(writer=writer, store=locked, operation=Operation.REDACT, old_path=memory.path, current=memory)
        )
        if memory.redacted_at is not None:
            return memory
        redaction = Redaction(memory=memory, store=locked, writer=writer, now=timezone.now(), texts=_texts_of(memory),
                              reason=reason)
        for reach in REACH:
            reach.scrub(redaction)
        enqueue_on_commit(VACUUM_TASK, {"tables": reach_tables()})
        logger.info("redacted all versions of memory %s in store %s", memory.public_id, locked.public_id)
        memory.refresh_from_db()
        return memory

    return recording_refusals(work)


def version_redact(*, writer: Writer, store: Store, version_id: str):
    """Blank one version's text and path (admins, through the API). Repeating it changes nothing.

    The head version of a memory not deleted is refused (409 ``version_is_live``): its text is the
    memory's live text, which blanking the version alone would leave readable.
    """
    require_console_admin(writer, "Only console admins redact versions.", store)
    with transaction.atomic():
        version = Memory.history.filter(version_id=version_id, store_id=store.pk).first()
        if version is None:
            raise NotFound(f"No version {version_id} in store {store.public_id}.")
        live = Memory.objects.filter(
            pk=version.id, deleted_at__isnull=True, redacted_at__isnull=True, head_version_id=version_id
        ).first()
        if live is not None and version.version_redacted_at is None:
            raise Conflict(
                f"Version {version_id} is the live text of memory {live.public_id}, which is not deleted: "
                "redacting it would leave that text readable. Delete the memory first, then redact its "
                "versions; or edit the text out of the memory and redact this (then older) version.",
                code=Reason.VERSION_IS_LIVE,
            )
        if version.version_redacted_at is None:
            Memory.history.filter(pk=version.pk).update(
                **REDACTED_VERSION_FIELDS, version_redacted_at=timezone.now(), version_redacted_by=writer.actor
            )
            enqueue_on_commit(VACUUM_TASK, {"tables": [Memory.history.model._meta.db_table]})
            version.refresh_from_db()
        return version


def vacuum_tables(tables: Iterable[str], *, using: str = DEFAULT_DB_ALIAS) -> list[str]:
    """Run a plain ``VACUUM`` on each of ``tables`` that a redaction touches; returns those vacuumed.

    A plain VACUUM (not FULL) takes no lock that stops readers or writers; it makes the space of
    dead row versions (the old text) reusable in each table and its TOAST table. It cannot run in
    a transaction, so it gets a connection of its own, in autocommit, whatever the caller holds.
    On SQLite nothing is done: VACUUM there rewrites the whole file under an exclusive lock (see
    the README for what that leaves).
    """
    known = set(reach_tables())
    names = [t for t in dict.fromkeys(tables) if t in known]  # only our own tables, once each
    if connections[using].vendor != "postgresql" or not names:
        return []
    own = connections.create_connection(using)
    try:
        own.ensure_connection()
        own.set_autocommit(True)
        with own.cursor() as cursor:
            for name in names:
                # INDEX_CLEANUP ON: never skip the indexes (PostgreSQL may, when few rows died),
                # whose entries of a path would otherwise stay.
                cursor.execute(f"VACUUM (INDEX_CLEANUP ON) {own.ops.quote_name(name)}")
    finally:
        own.close()
    logger.info("vacuumed %s after a redaction", ", ".join(names))
    return names
