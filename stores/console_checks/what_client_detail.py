"""What: no client detail where it does not belong.

A store shared across clients (agent, practice, toolset, shared) names no client at all: no name,
alias, project key, repository, dataset or table. A project store names no *other* client's detail;
a term that also belongs to the project's own client (two clients share a dataset name) is its own.
The check runs for every writer and door, people included.
"""

from __future__ import annotations

import threading

from django.db import connection

from stores.models import Client, JiraProject, RegistryVersion, Store, StoreKind

from .detectors.client_detail import ClientDetailMatcher, ClientTerm
from .reasons import Reason
from .request import ChangeRequest, Decision, ReadWithLock, refuse

_lock = threading.Lock()
_cached: tuple[object, ClientDetailMatcher] | None = None

_REGISTRY_VERSION_SQL = f"SELECT version FROM {RegistryVersion._meta.db_table} WHERE id = 1"

# What this check reads, as SQL expressions over a row of the store table, for a service that reads
# them in the statement that locks the store (``ReadWithLock``, in that order): the registry's
# version, and the name of the client whose project store it is (NULL for other kinds).
LOCK_READS = (
    f"({_REGISTRY_VERSION_SQL})",
    f"(SELECT c.name FROM {JiraProject._meta.db_table} p JOIN {Client._meta.db_table} c ON c.id = p.client_id "
    f"WHERE p.id = {Store._meta.db_table}.project_id)",
)


def _registry_version() -> int | None:
    """The registry's version number (one primary-key read), bumped in the database on every change.

    None only when the row is missing (a test database just flushed); the next registry change
    makes it again with a new number.
    """
    with connection.cursor() as cursor:
        cursor.execute(_REGISTRY_VERSION_SQL)
        row = cursor.fetchone()
    return None if row is None else row[0]


def registry_terms() -> list[ClientTerm]:
    """Every name the registry knows, labelled with its kind and client."""
    terms: list[ClientTerm] = []
    for client in Client.objects.prefetch_related("projects"):
        terms.append(ClientTerm(client.name, "client name", client.name))
        terms += [ClientTerm(a, "client alias", client.name) for a in client.aliases or []]
        terms += [ClientTerm(r, "repository", client.name) for r in client.repositories or []]
        terms += [ClientTerm(d, "dataset", client.name) for d in client.datasets or []]
        terms += [ClientTerm(t, "table", client.name) for t in client.tables or []]
        terms += [ClientTerm(t, "distinctive table", client.name) for t in client.distinctive_tables or []]
        terms += [ClientTerm(p.key, "project key", client.name) for p in client.projects.all()]
    return terms


def current_matcher(read: ReadWithLock | None = None) -> ClientDetailMatcher:
    """The automaton for the registry as it is now, rebuilt only when the registry's version moved.

    The version is read on every call (or given, as ``read`` holds it, read with the store's lock
    for this very change), so a change made by any process (a key renamed in the admin) reaches
    this one on its next check.
    """
    global _cached
    version = read.registry_version if read is not None else _registry_version()
    with _lock:
        if _cached is not None and _cached[0] == version:
            return _cached[1]
    matcher = ClientDetailMatcher(registry_terms())
    with _lock:
        _cached = (version, matcher)
    return matcher


SHARED_ACROSS_CLIENTS = frozenset({StoreKind.AGENT, StoreKind.PRACTICE, StoreKind.TOOLSET, StoreKind.SHARED})


def _own_client(req: ChangeRequest) -> str | None:
    """The name of the client whose project store this is."""
    if not req.store.project_id:
        return None
    if req.read_with_lock is not None:
        return req.read_with_lock.own_client
    return JiraProject.objects.filter(pk=req.store.project_id).values_list("client__name", flat=True).first()


def check_client_detail(req: ChangeRequest) -> Decision | None:
    """Refuse client detail in a store shared across clients, and another client's in a project store."""
    if req.content is None and req.brought_path is None:
        return None
    if req.store.kind in SHARED_ACROSS_CLIENTS:
        return client_detail_refusal(req, current_matcher(req.read_with_lock))
    if req.store.kind == StoreKind.PROJECT:
        own = _own_client(req)
        if own is not None:
            return client_detail_refusal(req, current_matcher(req.read_with_lock), own_client=own)
    return None


def client_detail_refusal(
    req: ChangeRequest, matcher: ClientDetailMatcher, own_client: str | None = None
) -> Decision | None:
    """The check's rule for one change, given the registry's matcher and, for a project store, its client.

    ``check_client_detail`` calls it with the registry as it is now; the detection benchmark calls
    it with a labelled registry, so both judge a text the same way.
    """
    path = req.brought_path
    if own_client is None and req.store.kind not in SHARED_ACROSS_CLIENTS:
        return None
    in_text = matcher.scan(req.content or "", own_client=own_client)
    in_path = matcher.scan(path or "", own_client=own_client)
    findings = in_text + in_path
    if not findings:
        return None
    located = _locate(matcher, req.content or "", in_text, own_client) + [
        {"kind": f.kind, "term": f.term, "line": 0} for f in in_path
    ]
    first = located[0]
    where = "in the path" if first.get("line") == 0 else f"on line {first['line']}" if first.get("line") else ""
    where = f" {where}" if where else ""
    if own_client is None:
        kind = StoreKind(req.store.kind).label.lower()
        return refuse(
            Reason.CLIENT_DETAIL,
            f"A{'n' if kind[0] in 'aeiou' else ''} {kind} store is shared across clients and holds no client "
            f"detail, and this names a {first['kind']} ('{first['term']}'){where}. Put client detail in the "
            "project store; keep only the general lesson here.",
            # The record names the kind of term and where, never the term: a client's name is the detail.
            record_message=f"A{'n' if kind[0] in 'aeiou' else ''} {kind} store is shared across clients and "
            f"holds no client detail, and this named a {first['kind']}{where}.",
            findings=located[:10],
        )
    return refuse(
        Reason.CLIENT_DETAIL,
        f"This names a {first['kind']} ('{first['term']}'){where} that belongs to another client, not to this "
        "project's client. A project store holds its own client's detail only; leave the other "
        "client's out.",
        record_message=f"This named a {first['kind']}{where} that belongs to another client, not to this "
        "project's client.",
        findings=[{**f, "other_client": True} for f in located[:10]],
    )


def _locate(
    matcher: ClientDetailMatcher, text: str, findings: list, own_client: str | None
) -> list[dict[str, object]]:
    """The text's findings, each with the first line that names it on its own (read only when
    refusing, so a page can show the passage); a term found only across lines keeps no line."""
    lines: dict[tuple[str, str], int] = {}
    if findings:
        for number, line in enumerate(text.splitlines(), start=1):
            for found in matcher.scan(line, own_client=own_client) if line.strip() else ():
                lines.setdefault((found.kind, found.term), number)
    located = []
    for f in findings:
        entry: dict[str, object] = {"kind": f.kind, "term": f.term}
        if (f.kind, f.term) in lines:
            entry["line"] = lines[(f.kind, f.term)]
        located.append(entry)
    return located
