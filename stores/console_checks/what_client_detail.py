"""What: an agent store names no client (no name, alias, project key, repository, dataset or table)."""

from __future__ import annotations

import threading

from django.db import connection

from stores.models import Client, JiraProject, StoreKind

from .detectors.client_detail import ClientDetailMatcher, ClientTerm
from .reasons import Reason
from .request import ChangeRequest, Decision, refuse

_lock = threading.Lock()
_cached: tuple[object, ClientDetailMatcher] | None = None


def _registry_version() -> tuple:
    """A cheap fingerprint of the registry (one round trip), so the automaton is rebuilt only on change."""
    clients, projects = Client._meta.db_table, JiraProject._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT (SELECT COUNT(*) FROM {clients}), (SELECT MAX(updated_at) FROM {clients}), "
            f"(SELECT COUNT(*) FROM {projects}), (SELECT MAX(id) FROM {projects})"
        )
        return tuple(cursor.fetchone())


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


def current_matcher() -> ClientDetailMatcher:
    """The automaton for the registry as it is now, rebuilt only when the registry changes."""
    global _cached
    version = _registry_version()
    with _lock:
        if _cached is not None and _cached[0] == version:
            return _cached[1]
    matcher = ClientDetailMatcher(registry_terms())
    with _lock:
        _cached = (version, matcher)
    return matcher


def check_client_detail(req: ChangeRequest) -> Decision | None:
    path = req.brought_path
    if req.store.kind != StoreKind.AGENT or (req.content is None and path is None):
        return None
    matcher = current_matcher()
    findings = matcher.scan(req.content or "") + matcher.scan(path or "")
    if not findings:
        return None
    first = findings[0]
    return refuse(
        Reason.CLIENT_DETAIL,
        f"An agent store holds no client detail, and this names a {first.kind} ('{first.term}'). "
        "Put client detail in the project store; keep only the general lesson here.",
        findings=[{"kind": f.kind, "term": f.term} for f in findings[:10]],
    )
