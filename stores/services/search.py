"""Full-text search: the index's upkeep and its one query, on PostgreSQL and on SQLite.

The index is the table of SearchEntry rows (one per document) and, beside it, the database's
own full-text index: a generated tsvector column with a GIN index on PostgreSQL, the FTS5 table
``stores_search_fts`` on SQLite (see migration 0006). The memory services call
``search_index_memory`` whenever they write a version, and the redaction service calls
``search_index_purge_memory``; nothing else writes the index, and no signal does.

A document source (memories today; run records later) is one ``SearchSource``: a name and a
function that turns a row into a ``SearchDocument``. ``search`` takes the source's name, so a
second source plugs in without a second query.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from stores.models import Memory, SearchEntry

MEMORY_SOURCE = "memory"
FTS_TABLE = "stores_search_fts"
# Private-use characters mark a match inside a snippet, so the text can be HTML-escaped first and
# the marks turned into <mark> after: nothing a note holds can become markup.
MARK_START, MARK_END = "\ue000", "\ue001"
DEFAULT_LIMIT = 50
MAX_QUERY_CHARS = 500
PG_CONFIG = "english"
PG_HEADLINE_OPTIONS = (
    f'StartSel="{MARK_START}", StopSel="{MARK_END}", MaxWords=30, MinWords=12, '
    'MaxFragments=2, FragmentDelimiter=" … "'
)


# --- documents and their sources -------------------------------------------------------------


@dataclass(frozen=True)
class SearchDocument:
    """What the index keeps of one row: where it lives, its text, who changed it last and when."""

    source: str
    source_id: int
    store_id: int | None
    path: str
    body: str
    writer_name: str
    run_public_id: str
    changed_at: datetime
    deleted_at: datetime | None


@dataclass(frozen=True)
class SearchSource:
    """A kind of row the index holds. ``document`` returns None for a row that must not be found."""

    name: str
    document: Callable[..., SearchDocument | None]


def memory_document(memory: Memory, *, writer_name: str = "", run_public_id: str = "") -> SearchDocument | None:
    """A memory's current path and text; a redacted memory has none."""
    if memory.redacted_at is not None:
        return None
    return SearchDocument(
        source=MEMORY_SOURCE,
        source_id=memory.pk,
        store_id=memory.store_id,
        path=memory.path,
        body=memory.content,
        writer_name=writer_name[:150],
        run_public_id=run_public_id,
        changed_at=memory.updated_at,
        deleted_at=memory.deleted_at,
    )


SOURCES: dict[str, SearchSource] = {MEMORY_SOURCE: SearchSource(MEMORY_SOURCE, memory_document)}


# --- keeping the index in step ---------------------------------------------------------------


_ENTRY_FIELDS = ("store_id", "path", "body", "writer_name", "run_public_id", "changed_at", "deleted_at")
_PG_UPSERT = (
    f"INSERT INTO {SearchEntry._meta.db_table} (source, source_id, {', '.join(_ENTRY_FIELDS)}) "
    f"VALUES ({', '.join(['%s'] * (2 + len(_ENTRY_FIELDS)))}) ON CONFLICT (source, source_id) DO UPDATE SET "
    + ", ".join(f"{name} = EXCLUDED.{name}" for name in _ENTRY_FIELDS)
)


def search_index_put(document: SearchDocument) -> None:
    """Add or replace one document, in the entry table and in the database's full-text index."""
    values = {name: getattr(document, name) for name in _ENTRY_FIELDS}
    if connection.vendor == "postgresql":
        # One upsert statement on every write; PostgreSQL computes the tsvector column itself
        # (GENERATED ALWAYS ... STORED). Written out: the ORM's bulk_create costs more than the statement.
        with connection.cursor() as cursor:
            cursor.execute(_PG_UPSERT, [document.source, document.source_id, *values.values()])
        return
    entry, _ = SearchEntry.objects.update_or_create(
        source=document.source, source_id=document.source_id, defaults=values,
    )
    if connection.vendor == "sqlite":
        # FTS5 has no upsert; the delete also drops a row left behind by a flushed table.
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {FTS_TABLE} WHERE rowid = %s", [entry.pk])
            cursor.execute(
                f"INSERT INTO {FTS_TABLE}(rowid, path, body) VALUES (%s, %s, %s)",
                [entry.pk, document.path, document.body],
            )


def search_index_remove(source: str, source_ids: Iterable[int]) -> int:
    """Remove documents from the entry table and the full-text index; returns how many went."""
    ids = list(SearchEntry.objects.filter(source=source, source_id__in=list(source_ids)).values_list("pk", flat=True))
    if not ids:
        return 0
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            marks = ", ".join(["%s"] * len(ids))
            cursor.execute(f"DELETE FROM {FTS_TABLE} WHERE rowid IN ({marks})", ids)
            # Merge FTS5's segments so the deleted terms leave its b-tree now, not at a later merge.
            cursor.execute(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('optimize')")
    SearchEntry.objects.filter(pk__in=ids).delete()
    return len(ids)


def search_index_memory(memory: Memory, *, writer_name: str = "", run_public_id: str = "") -> None:
    """Bring a memory's document in step with the row just saved (the memory services call this)."""
    document = memory_document(memory, writer_name=writer_name, run_public_id=run_public_id)
    if document is None:
        search_index_remove(MEMORY_SOURCE, [memory.pk])
    else:
        search_index_put(document)


def search_index_purge_memory(memory: Memory) -> int:
    """Take a memory's text out of the index for good (the redaction service calls this)."""
    return search_index_remove(MEMORY_SOURCE, [memory.pk])


@transaction.atomic
def search_index_rebuild_memories() -> int:
    """Index every memory anew from its rows (after a restore from backup, say); returns the count.

    One transaction: readers see the old index or the new one, never half of each.
    """
    heads = {
        (v["id"], v["version_id"]): v
        for v in Memory.history.values("id", "version_id", "actor", "run_public_id").iterator()
    }
    SearchEntry.objects.filter(source=MEMORY_SOURCE).delete()
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {FTS_TABLE} WHERE rowid NOT IN (SELECT id FROM stores_searchentry)")
    count = 0
    for memory in Memory.objects.filter(redacted_at__isnull=True).iterator():
        head = heads.get((memory.pk, memory.head_version_id)) or {}
        search_index_memory(
            memory,
            writer_name=(head.get("actor") or {}).get("name") or "",
            run_public_id=head.get("run_public_id") or "",
        )
        count += 1
    return count


# --- reading a query --------------------------------------------------------------------------
# One rule reads every search box (memories, run records) on both databases: ``parse_query``
# turns the text into a ParsedQuery, which writes itself out as FTS5 syntax (SQLite) or as a
# tsquery expression (PostgreSQL). Nothing a person types reaches either engine's own syntax.

_TERM = re.compile(r'(-?)"([^"]*)"?|(\S+)')
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class ParsedQuery:
    """A person's query read the websearch way: words, "quoted phrases", OR, and -excluded.

    ``problem`` names the first thing the reading had to skip or guess at (an unclosed quote, an
    OR with nothing on one side, a term with no word in it), in words a person can act on; the
    memory search and the run-record search both refuse the query with it, never guessing.
    """

    groups: list[list[tuple[str, bool]]]  # OR of AND-groups of (phrase, is_prefix)
    excluded: list[str]
    problem: str = ""

    @property
    def empty(self) -> bool:
        return not any(self.groups)

    def fts5(self) -> str:
        """The same query in FTS5's syntax, every term quoted, so no text can be read as an operator."""

        def term(phrase: str, prefix: bool) -> str:
            return '"' + phrase.replace('"', '""') + '"' + ("*" if prefix else "")

        ors = ["(" + " AND ".join(term(p, pre) for p, pre in group) + ")" for group in self.groups if group]
        expr = "(" + " OR ".join(ors) + ")"
        for phrase in self.excluded:
            expr += f" NOT {term(phrase, False)}"
        return expr

    def tsquery(self, config: str = PG_CONFIG) -> tuple[str, list[str]]:
        """The same query as a PostgreSQL tsquery expression and its parameters.

        Each phrase goes in as a parameter of ``phraseto_tsquery`` (a prefix word as ``'word':*``
        through ``to_tsquery``; the word holds only letters, digits and underscores), so the text
        is never read as tsquery syntax.
        """
        params: list[str] = []

        def term(phrase: str, prefix: bool) -> str:
            if prefix:
                params.append(f"'{phrase}':*")
                return f"to_tsquery('{config}', %s)"
            params.append(phrase)
            return f"phraseto_tsquery('{config}', %s)"

        ors = ["(" + " && ".join(term(p, pre) for p, pre in group) + ")" for group in self.groups if group]
        expr = "(" + " || ".join(ors) + ")"
        for phrase in self.excluded:
            expr += f" && !!{term(phrase, False)}"
        # Parenthesised whole: `vector @@ a && !!b` would otherwise read as `(vector @@ a) && !!b`.
        return f"({expr})", params


def clean_query_text(text: str) -> str:
    """The text without what no database takes in a string (NUL, lone surrogates); neither is a word."""
    return text.encode("utf-8", "ignore").decode("utf-8").replace("\x00", "")


NOTHING_TO_LOOK_FOR = "Type one or more words to look for."
ONLY_WORDS_LEFT_OUT = "Add a word to look for: a search cannot be only words to leave out."


def parse_query(text: str) -> ParsedQuery:
    """Read any text as a query. Punctuation only separates words; nothing raises.

    What the reading had to skip is said in ``problem`` (the first such thing), so a caller that
    wants every term to mean something can refuse the query with that message.
    """
    groups: list[list[tuple[str, bool]]] = [[]]
    excluded: list[str] = []
    problems: list[str] = []
    if len(text) > MAX_QUERY_CHARS:
        problems.append(f"The search is {len(text):,} characters long; at most {MAX_QUERY_CHARS} are read.")
    dangling_or = False
    for match in _TERM.finditer(text[:MAX_QUERY_CHARS]):
        negated, quoted, bare = match.group(1), match.group(2), match.group(3)
        whole = match.group(0)
        if bare is not None:
            if bare.lower() == "or":
                if groups[-1]:
                    groups.append([])
                    dangling_or = True
                else:
                    problems.append(f"OR at character {match.start() + 1} must stand between two words to look for.")
                continue
            negated = "-" if bare.startswith("-") else ""
            prefix = bare.endswith("*")
            words = _WORD.findall(bare)
        else:
            if len(whole) < len(negated) + 2 or not whole.endswith('"'):
                problems.append(f'The quote at character {match.start() + len(negated) + 1} is never closed: add a " '
                                "after the phrase.")
            prefix = False
            words = _WORD.findall(quoted)
        if not words:
            if negated and whole == "-":
                problems.append(f"The - at character {match.start() + 1} must be followed by a word to leave out.")
            else:
                problems.append(f"{whole!r} at character {match.start() + 1} holds no letter or digit to look for.")
            continue
        phrase = " ".join(words)
        if negated:
            excluded.append(phrase)
        else:
            groups[-1].append((phrase, prefix and len(words) == 1))
            dangling_or = False
    if dangling_or:
        problems.append("The search ends with OR: add a word after it, or take it out.")
    found = [g for g in groups if g]
    if not found:
        problems.append(ONLY_WORDS_LEFT_OUT if excluded else NOTHING_TO_LOOK_FOR)
    return ParsedQuery(groups=found, excluded=excluded, problem=problems[0] if problems else "")


# --- the query --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchHit:
    entry: SearchEntry
    snippet: SafeString
    rank: float


@dataclass
class SearchResults:
    hits: list[SearchHit] = field(default_factory=list)
    message: str = ""  # why there is nothing to show, in words a person can act on
    more: bool = False  # more hits than the limit
    ran: bool = False  # the query was read and run (False: ``message`` says why not)
    problem: str = ""  # the query cannot be read as written (``message`` too): the asker must fix it


def highlight(snippet: str) -> SafeString:
    """A snippet the database marked with MARK_START/MARK_END, as HTML: escaped first, then marked."""
    text = escape(snippet or "")
    return mark_safe(text.replace(MARK_START, "<mark>").replace(MARK_END, "</mark>"))


def _day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min), timezone.get_current_timezone())


def _like_prefix(prefix: str) -> str:
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def search(
    text: str,
    *,
    source: str = MEMORY_SOURCE,
    store_ids: Iterable[int] | None = None,
    folder: str = "",
    writer: str = "",
    after: date | None = None,
    before: date | None = None,
    deleted: bool = False,
    deleted_since: datetime | None = None,
    limit: int = DEFAULT_LIMIT,
) -> SearchResults:
    """The documents matching ``text``, best first, with the matching passage highlighted.

    ``store_ids`` bounds the search (None: every store; the callers pass what the reader may
    see). ``deleted`` picks deleted documents (those deleted since ``deleted_since``) instead of
    live ones. ``after`` and ``before`` are days, both included, on the last change.
    """
    text = clean_query_text(text)
    parsed = parse_query(text)
    if parsed.problem:
        # Never a guess at what was meant: the run-record search answers the same, from the same parser.
        nothing_asked = parsed.empty and parsed.problem in (NOTHING_TO_LOOK_FOR, ONLY_WORDS_LEFT_OUT)
        message = parsed.problem if nothing_asked else f"The search cannot be read: {parsed.problem}"
        return SearchResults(message=message, problem=message)
    where = ["e.source = %s"]
    params: list[Any] = [source]
    if store_ids is not None:
        ids = list(store_ids)
        if not ids:
            return SearchResults(message="There is no store you may search.")
        where.append("e.store_id IN (" + ", ".join(["%s"] * len(ids)) + ")")
        params += ids
    if folder:
        where.append("e.path LIKE %s ESCAPE '\\'")
        params.append(_like_prefix(folder.rstrip("/") + "/"))
    if writer:
        where.append("LOWER(e.writer_name) = LOWER(%s)")
        params.append(writer)
    adapt = connection.ops.adapt_datetimefield_value
    if after:
        where.append("e.changed_at >= %s")
        params.append(adapt(_day_start(after)))
    if before:
        where.append("e.changed_at < %s")
        params.append(adapt(_day_start(before + timedelta(days=1))))
    if deleted:
        where.append("e.deleted_at IS NOT NULL")
        if deleted_since is not None:
            where.append("e.deleted_at >= %s")
            params.append(adapt(deleted_since))
    else:
        where.append("e.deleted_at IS NULL")
    if connection.vendor == "postgresql":
        rows = _search_postgresql(parsed, where, params, limit + 1)
    else:
        rows = _search_sqlite(parsed.fts5(), where, params, limit + 1)
    entries = SearchEntry.objects.in_bulk([row[0] for row in rows])
    hits = [SearchHit(entry=entries[i], snippet=highlight(s), rank=float(r)) for i, s, r in rows if i in entries]
    results = SearchResults(hits=hits[:limit], more=len(hits) > limit, ran=True)
    if not hits:
        results.message = "Nothing matches."
    return results


def _search_postgresql(parsed: ParsedQuery, where: list[str], params: list[Any], limit: int) -> list[tuple]:
    # The query is the parsed one written as a tsquery, as SQLite gets it written for FTS5.
    # The headline is computed for the top rows only, after ranking.
    tsquery, query_params = parsed.tsquery()
    sql = f"""
        WITH q AS (SELECT {tsquery} AS query)
        SELECT e.id, ts_headline('{PG_CONFIG}', e.body, q.query, %s), top.rank
        FROM (
            SELECT e.id, ts_rank_cd(e.search_vector, q.query) AS rank
            FROM stores_searchentry e, q
            WHERE e.search_vector @@ q.query AND {" AND ".join(where)}
            ORDER BY rank DESC, e.id DESC
            LIMIT %s
        ) top JOIN stores_searchentry e ON e.id = top.id, q
        ORDER BY top.rank DESC, e.id DESC
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [*query_params, PG_HEADLINE_OPTIONS, *params, limit])
        return cursor.fetchall()


def _search_sqlite(expression: str, where: list[str], params: list[Any], limit: int) -> list[tuple]:
    # bm25 is lower for better matches; the path column weighs more than the text.
    sql = f"""
        SELECT e.id, snippet({FTS_TABLE}, 1, %s, %s, ' … ', 24), bm25({FTS_TABLE}, 4.0, 1.0) AS score
        FROM {FTS_TABLE} JOIN stores_searchentry e ON e.id = {FTS_TABLE}.rowid
        WHERE {FTS_TABLE} MATCH %s AND {" AND ".join(where)}
        ORDER BY score, e.id DESC
        LIMIT %s
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [MARK_START, MARK_END, expression, *params, limit])
        return [(i, s, -score) for i, s, score in cursor.fetchall()]
