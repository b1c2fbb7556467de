"""Search across past run records: full text, newest record first, the matching passage highlighted.

The index is the database's own and follows the rows by itself (migration 0003): on PostgreSQL a
generated ``search_vector`` column on runs_runrecord with a GIN index, on SQLite the FTS5 table
``runs_record_fts`` written by triggers. So every door that writes, scrubs or deletes a record
(the record API, redaction's scrubber, the rescrub, retention and engagement-close purges, a run
deleted with its records) changes the index in the same statement, and none can forget it. What
the services call here is what the database does not do by itself: SQLite's FTS5 keeps deleted
terms in its b-tree until a merge, so whoever scrubs or deletes records calls
``record_index_settle`` to merge at once.

The query is read by the memory search's one rule (``stores.services.search.parse_query``) and
highlighted by its one rule (``highlight``); unlike the memory search box, a query with a problem
(an unclosed quote, an OR with nothing on one side) is refused with that problem, never guessed at.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import connection
from django.utils import timezone
from django.utils.safestring import SafeString

from jira_link.client import normalize_issue_key
from stores.errors import InvalidRequest
from stores.models import HostedAgent, JiraProject
from stores.services.search import (
    MARK_END,
    MARK_START,
    PG_CONFIG,
    PG_HEADLINE_OPTIONS,
    ParsedQuery,
    clean_query_text,
    highlight,
    parse_query,
)

from .models import Run, RunRecord

RECORD_FTS_TABLE = "runs_record_fts"
DEFAULT_LIMIT = 20
MAX_LIMIT = 100
# The stretches of record time a PostgreSQL search reads in turn, in days back from now: a page
# of a common word fills from the first, a rare word's few records are found in each by GIN.
WINDOW_DAYS = (1, 3, 9, 27, 81, 243)

# The signals a run ends with, by the name the search takes (``outcome``), as SQL on the run row.
OUTCOMES: dict[str, str] = {
    "qa_failed": "u.qa_failed = %s",
    "needed_ruling": "u.needed_ruling = %s",
    "worked_past_error": "u.worked_past_error = %s",
    "retried": "u.attempts > 1 AND %s",
}
_PROJECT_KEY = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,31}$")

# A record's text as the index reads it: the transcript, then every string value in the events,
# one a line (as the SQLite triggers of migration 0003 write it into FTS5).
_PG_BODY = (
    "concat_ws(E'\\n', r.transcript, (SELECT string_agg(v #>> '{}', E'\\n') "
    "FROM jsonb_path_query(r.events, 'strict $.**') AS v WHERE jsonb_typeof(v) = 'string'))"
)
_SQLITE_BODY = (
    "coalesce(r.transcript, '') || char(10) || coalesce((SELECT group_concat(value, char(10)) "
    "FROM json_tree(r.events) WHERE type = 'text'), '')"
)


class RecordQueryError(InvalidRequest):
    """A search the query syntax cannot read (an unclosed quote, a dangling OR, no word): 400."""


@dataclass(frozen=True)
class RecordFilters:
    """What narrows a run-record search; every field optional.

    The times bound when the record was kept (at the run's end, or as the run went), the order
    the hits come in, so the database reads only that stretch of its time index.
    """

    project: str = ""  # a Jira project key
    ticket: str = ""  # a Jira ticket key
    agent: str = ""  # a hosted agent's name
    kept_from: datetime | None = None  # inclusive
    kept_before: datetime | None = None  # exclusive
    outcomes: tuple[str, ...] = ()  # any of OUTCOMES


@dataclass(frozen=True)
class RecordHit:
    """One record that matches: its row (with its run, agent and project) and the passage, marked."""

    record: RunRecord
    snippet: SafeString

    @property
    def run(self) -> Run:
        return self.record.run

    @property
    def signals(self) -> list[str]:
        return run_signal_names(self.record.run)


@dataclass
class RecordResults:
    hits: list[RecordHit] = field(default_factory=list)
    # The (created_at, id) of the last hit's record when another page follows, else None.
    next_key: tuple[datetime, int] | None = None


def run_signal_names(run: Run) -> list[str]:
    """The outcome names a run ended with, in the order of OUTCOMES (``retried``: more than one attempt)."""
    found = {
        "qa_failed": run.qa_failed,
        "needed_ruling": run.needed_ruling,
        "worked_past_error": run.worked_past_error,
        "retried": run.attempts > 1,
    }
    return [name for name in OUTCOMES if found[name]]


def read_record_query(text: str) -> ParsedQuery:
    """The query read by the one search rule, or RecordQueryError naming what cannot be read."""
    parsed = parse_query(clean_query_text(text or ""))
    if parsed.problem:
        raise RecordQueryError(f"The search cannot be read: {parsed.problem}")
    return parsed


def clean_filters(
    *, project: str = "", ticket: str = "", agent: str = "", kept_from: datetime | None = None,
    kept_before: datetime | None = None, outcomes: Iterable[str] = (),
) -> RecordFilters:
    """The filters checked: a project or ticket key that cannot be one, or an unknown outcome, is a 400."""
    project = (project or "").strip()
    if project and not _PROJECT_KEY.match(project):
        raise InvalidRequest(f"`project` must be a Jira project key such as ACME, not {project[:40]!r}.")
    ticket = (ticket or "").strip()
    if ticket:
        normal = normalize_issue_key(ticket)
        if normal is None:
            raise InvalidRequest(f"`ticket` must be a Jira ticket key such as ACME-123, not {ticket[:40]!r}.")
        ticket = normal
    wanted = tuple(dict.fromkeys(o.strip() for o in outcomes if o.strip()))
    unknown = [o for o in wanted if o not in OUTCOMES]
    if unknown:
        raise InvalidRequest(f"`outcome` must be any of {', '.join(OUTCOMES)}; {unknown[0][:40]!r} is not one.")
    if kept_from and kept_before and kept_from >= kept_before:
        raise InvalidRequest("`after` must come before `before`.")
    return RecordFilters(project=project, ticket=ticket, agent=(agent or "").strip(), kept_from=kept_from,
                         kept_before=kept_before, outcomes=wanted)


def record_search(
    text: str,
    *,
    project_ids: Iterable[int] | None,
    filters: RecordFilters = RecordFilters(),
    limit: int = DEFAULT_LIMIT,
    page_after: tuple[datetime, int] | None = None,
) -> RecordResults:
    """The run records matching ``text``, newest first, one page of ``limit`` after ``page_after``.

    Newest by when the record was kept (a run's record comes at its end); on PostgreSQL the
    search reads stretches of that time in turn (WINDOW_DAYS), so a page never needs every match
    of a common word sorted. ``project_ids`` bounds the search to what the reader may see (None:
    every project). Raises RecordQueryError for a query the syntax cannot read; an unknown project
    or agent finds nothing.
    """
    parsed = read_record_query(text)
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidRequest(f"`limit` must be from 1 to {MAX_LIMIT}, not {limit}.")
    adapt = connection.ops.adapt_datetimefield_value
    where: list[str] = []
    params: list = []
    if project_ids is not None:
        ids = list(project_ids)
        if not ids:
            return RecordResults()
        where.append("r.project_id IN (" + ", ".join(["%s"] * len(ids)) + ")")
        params += ids
    if filters.project:
        project_id = JiraProject.objects.filter(key__iexact=filters.project).values_list("pk", flat=True).first()
        if project_id is None:
            return RecordResults()
        where.append("r.project_id = %s")
        params.append(project_id)
    if filters.ticket:
        where.append("u.ticket_key = %s")
        params.append(filters.ticket)
    if filters.agent:
        agent_ids = list(HostedAgent.objects.filter(name__iexact=filters.agent).values_list("pk", flat=True))
        if not agent_ids:
            return RecordResults()
        where.append("u.agent_id IN (" + ", ".join(["%s"] * len(agent_ids)) + ")")
        params += agent_ids
    if filters.kept_from:
        where.append("r.created_at >= %s")
        params.append(adapt(filters.kept_from))
    if filters.kept_before:
        where.append("r.created_at < %s")
        params.append(adapt(filters.kept_before))
    if filters.outcomes:
        where.append("(" + " OR ".join(OUTCOMES[o] for o in filters.outcomes) + ")")
        params += [True] * len(filters.outcomes)
    if page_after is not None:
        at, pk = page_after
        where.append("(r.created_at < %s OR (r.created_at = %s AND r.id < %s))")
        params += [adapt(at), adapt(at), pk]
    where_sql = " AND ".join(where) if where else "1 = 1"
    if connection.vendor == "postgresql":
        # The windows start where the newest record this page may hold was kept.
        anchor = min(t for t in (timezone.now(), page_after and page_after[0], filters.kept_before) if t)
        rows = _search_postgresql(parsed, where_sql, params, limit + 1, filters=filters, anchor=anchor)
    else:
        rows = _search_sqlite(parsed, where_sql, params, limit + 1)
    records = RunRecord.objects.select_related("run__agent", "project").defer("transcript", "events").in_bulk(
        [pk for pk, _ in rows]
    )
    hits = [RecordHit(record=records[pk], snippet=highlight(s)) for pk, s in rows if pk in records]
    results = RecordResults(hits=hits[:limit])
    if len(hits) > limit:
        last = results.hits[-1]
        results.next_key = (last.record.created_at, last.record.pk)
    return results


def _windows(anchor: datetime, filters: RecordFilters) -> list[tuple[datetime | None, datetime | None]]:
    """The stretches of record time searched in turn, newest first: [lo, hi), None for open.

    Widening by three from a day before ``anchor`` (now, or the page's cursor), clipped to the
    filters' times; a window outside them is left out.
    """
    edges = [anchor - timedelta(days=days) for days in WINDOW_DAYS]
    bounds: list[tuple[datetime | None, datetime | None]] = []
    hi: datetime | None = None
    for lo in [*edges, None]:
        bounds.append((lo, hi))
        hi = lo
    out = []
    for lo, hi in bounds:
        if filters.kept_from is not None and (lo is None or lo < filters.kept_from):
            lo = filters.kept_from
        if filters.kept_before is not None and (hi is None or hi > filters.kept_before):
            hi = filters.kept_before
        if lo is not None and hi is not None and lo >= hi:
            continue
        out.append((lo, hi))
    return out


def _search_postgresql(parsed: ParsedQuery, where: str, params: list, limit: int, *, filters: RecordFilters,
                       anchor: datetime) -> list[tuple[int, str]]:
    # Window by window, newest first, every match of a window is found (through the GIN index,
    # or the time index for a word in most records) and the newest taken, until the page is full.
    # Never one ordered walk of the time index filtered by the text: each row it reads costs a
    # TOAST fetch of its tsvector, and a word in few records would make it read them all.
    # The tsquery is written out, not shared through a CTE, so the planner folds it to a
    # constant and estimates how many records match.
    tsquery, query_params = parsed.tsquery()
    adapt = connection.ops.adapt_datetimefield_value
    found: list[int] = []
    with connection.cursor() as cursor:
        for lo, hi in _windows(anchor, filters):
            window, window_params = [], []
            if lo is not None:
                window.append("r.created_at >= %s")
                window_params.append(adapt(lo))
            if hi is not None:
                window.append("r.created_at < %s")
                window_params.append(adapt(hi))
            cursor.execute(
                f"""
                WITH m AS MATERIALIZED (
                    SELECT r.id, r.created_at
                    FROM runs_runrecord r JOIN runs_run u ON u.id = r.run_id
                    WHERE r.search_vector @@ {tsquery} AND {where} {"AND " + " AND ".join(window) if window else ""}
                )
                SELECT id FROM m ORDER BY created_at DESC, id DESC LIMIT %s
                """,
                [*query_params, *params, *window_params, limit - len(found)],
            )
            found += [row[0] for row in cursor.fetchall()]
            if len(found) >= limit:
                break
        if not found:
            return []
        # The headline for the page only.
        cursor.execute(
            f"SELECT r.id, ts_headline('{PG_CONFIG}', {_PG_BODY}, {tsquery}, %s) FROM runs_runrecord r "
            "WHERE r.id = ANY(%s)",
            [*query_params, PG_HEADLINE_OPTIONS, found],
        )
        snippets = dict(cursor.fetchall())
    return [(pk, snippets.get(pk, "")) for pk in found]


def _search_sqlite(parsed: ParsedQuery, where: str, params: list, limit: int) -> list[tuple[int, str]]:
    # Two steps: the page's ids in order, then snippets for those only (FTS5 would otherwise make
    # a snippet for every match before sorting).
    expression = parsed.fts5()
    sql = f"""
        SELECT r.id
        FROM {RECORD_FTS_TABLE} JOIN runs_runrecord r ON r.id = {RECORD_FTS_TABLE}.rowid
        JOIN runs_run u ON u.id = r.run_id
        WHERE {RECORD_FTS_TABLE} MATCH %s AND {where}
        ORDER BY r.created_at DESC, r.id DESC
        LIMIT %s
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [expression, *params, limit])
        ids = [row[0] for row in cursor.fetchall()]
        if not ids:
            return []
        marks = ", ".join(["%s"] * len(ids))
        cursor.execute(
            f"SELECT rowid, snippet({RECORD_FTS_TABLE}, 0, %s, %s, ' … ', 24) FROM {RECORD_FTS_TABLE} "
            f"WHERE {RECORD_FTS_TABLE} MATCH %s AND rowid IN ({marks})",
            [MARK_START, MARK_END, expression, *ids],
        )
        snippets = dict(cursor.fetchall())
    return [(pk, snippets.get(pk, "")) for pk in ids]


# --- the index's upkeep beyond what the database does ------------------------------------------


def record_index_settle() -> None:
    """Merge SQLite's FTS5 segments so deleted and replaced terms leave its b-tree now.

    Called after records are scrubbed or deleted. PostgreSQL needs nothing: the generated column
    changes with the row, and the VACUUM that follows a redaction cleans the GIN index.
    """
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute(f"INSERT INTO {RECORD_FTS_TABLE}({RECORD_FTS_TABLE}) VALUES ('optimize')")


def record_index_rebuild() -> int:
    """Index every run record anew from its row; returns how many records the index holds.

    On SQLite the FTS5 table is refilled (after restoring a backup without it, say); on PostgreSQL
    the column is generated from the row and cannot drift, so this only counts.
    """
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {RECORD_FTS_TABLE}")
            cursor.execute(
                f"INSERT INTO {RECORD_FTS_TABLE}(rowid, body) SELECT r.id, {_SQLITE_BODY} FROM runs_runrecord r"
            )
        record_index_settle()
    return RunRecord.objects.count()
