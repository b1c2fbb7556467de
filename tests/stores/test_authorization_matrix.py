"""Who may change which store, for every store kind and operation (create, update, rename, delete).

Writers: pod member, agent assigned the ticket in Jira (writing in a run), agent whose ticket was
reassigned a moment ago, agent of another pod, owner and non-owner of an agent store, admins, and
escalation contacts of this and of another project.
"""

from __future__ import annotations

import secrets

import pytest

from runs.models import Run
from runs.services import run_attachments
from stores.models import Memory, Store, hash_token
from stores.services.tokens import RUN_TOKEN_PREFIX
from tests import factories as f

pytestmark = pytest.mark.django_db

BASE = "/api/v1/memory_stores"
OPS = ("create", "update", "rename", "delete")


def run_token_for(agent, project, ticket_key: str) -> str:
    secret = RUN_TOKEN_PREFIX + secrets.token_urlsafe(24)
    Run.objects.create(agent=agent, project=project, ticket_key=ticket_key, token_hash=hash_token(secret),
                       attachments=run_attachments(agent, project))
    return secret


@pytest.fixture
def matrix(world, jira_standin):
    """Tokens for every writer, and one existing memory in every store to update, rename and delete."""
    assigned = f.make_agent("asha", jira_account_id="acc-asha")
    moved = f.make_agent("milo", jira_account_id="acc-milo")
    jira_standin.set_issue("ACME-1", "ACME", "acc-asha")
    jira_standin.set_issue("ACME-2", "ACME", "acc-milo")
    shared = Store.objects.create(kind="shared", name="Shared lessons")
    stores = {
        "project": world.project_store,
        "own agent store": world.agent.store,
        "practice": world.practice,
        "toolset": world.toolset.store,
        "shared": shared,
    }
    moved_token = run_token_for(moved, world.project, "ACME-2")
    # Reassigned a moment ago: Jira now says someone else has the ticket.
    jira_standin.set_issue("ACME-2", "ACME", "acc-someone-else")
    tokens = {
        "pod member": world.agent_token,
        "assigned in run": run_token_for(assigned, world.project, "ACME-1"),
        "reassigned": moved_token,
        "other pod agent": world.outsider_token,
        "admin": world.admin_token,
        "contact": world.contact_token,
        "other contact": f.user_token(world.other_contact),
    }
    return stores, tokens


# expected[(writer, store)] = outcome for create/update/rename, and for delete.
ALLOW, R404 = "ok", 404
EXPECTED = {
    ("pod member", "project"): (ALLOW, ALLOW),
    ("assigned in run", "project"): (ALLOW, ALLOW),
    ("reassigned", "project"): ("not_in_pod_or_assigned", "not_in_pod_or_assigned"),
    ("other pod agent", "project"): (R404, R404),
    ("admin", "project"): (ALLOW, ALLOW),
    ("contact", "project"): (ALLOW, ALLOW),  # issue 11: contacts create, edit and rename in their projects' stores
    ("other contact", "project"): (R404, R404),
    ("pod member", "own agent store"): (ALLOW, ALLOW),
    ("assigned in run", "own agent store"): (R404, R404),  # another agent's store
    ("other pod agent", "own agent store"): (R404, R404),
    ("admin", "own agent store"): (ALLOW, ALLOW),
    ("contact", "own agent store"): (R404, R404),
    ("pod member", "practice"): ("read_only_store", "read_only_store"),
    ("other pod agent", "practice"): ("read_only_store", "read_only_store"),
    ("admin", "practice"): (ALLOW, ALLOW),
    ("contact", "practice"): (R404, R404),
    ("pod member", "toolset"): ("read_only_store", "read_only_store"),
    ("assigned in run", "toolset"): ("read_only_store", "read_only_store"),
    ("other pod agent", "toolset"): (R404, R404),
    ("admin", "toolset"): (ALLOW, ALLOW),
    ("contact", "toolset"): (R404, R404),
    ("pod member", "shared"): ("read_only_store", "read_only_store"),
    ("other pod agent", "shared"): ("read_only_store", "read_only_store"),
    ("admin", "shared"): (ALLOW, ALLOW),
    ("other contact", "shared"): (R404, R404),
}


def folder_for(writer: str) -> str:
    return {"pod member": "/agents/ada/", "assigned in run": "/agents/asha/", "reassigned": "/agents/milo/"}.get(
        writer, "/conventions/"
    )


@pytest.mark.parametrize("writer,store_name", sorted(EXPECTED))
@pytest.mark.parametrize("op", OPS)
def test_authorization(api, world, matrix, writer, store_name, op):
    stores, tokens = matrix
    store = stores[store_name]
    existing = f.make_memory(store, "/conventions/existing.md", "An existing lesson.\n")
    before = set(Memory.objects.filter(store=store).values_list("path", "content", "deleted_at"))
    api.as_token(tokens[writer])
    base = f"{BASE}/{store.public_id}/memories"
    if op == "create":
        r = api.post(base, {"path": folder_for(writer) + "new.md", "content": "A new lesson.\n"}, format="json")
    elif op == "update":
        r = api.post(f"{base}/{existing.public_id}", {"content": "A changed lesson.\n"}, format="json")
    elif op == "rename":
        r = api.post(f"{base}/{existing.public_id}", {"path": "/conventions/renamed.md"}, format="json")
    else:
        r = api.delete(f"{base}/{existing.public_id}")
    expected = EXPECTED[(writer, store_name)][1 if op == "delete" else 0]
    if expected == ALLOW:
        assert r.status_code == 200, r.json()
        return
    if expected == R404:
        assert r.status_code == 404, r.json()
    else:
        assert r.status_code == 403, r.json()
        assert r.json()["error"]["details"]["error_code"] == expected
    after = set(Memory.objects.filter(store=store).values_list("path", "content", "deleted_at"))
    assert after == before, "a refused change must leave the store exactly as it was"


def test_jira_down_refuses_the_jira_route_but_not_the_pod_route(api, world, matrix, jira_standin):
    stores, tokens = matrix
    jira_standin.down()
    from django.core.cache import cache

    cache.clear()
    base = f"{BASE}/{world.project_store.public_id}/memories"
    r = api.as_token(tokens["assigned in run"]).post(base, {"path": "/agents/asha/x.md", "content": "x"}, format="json")
    assert r.status_code == 403
    assert r.json()["error"]["details"]["error_code"] == "jira_unavailable"
    r = api.as_token(tokens["pod member"]).post(base, {"path": "/agents/ada/x.md", "content": "x"}, format="json")
    assert r.status_code == 200


def test_inactive_agent_is_refused(api, world):
    world.agent.active = False
    world.agent.save()
    r = api.as_token(world.agent_token).post(
        f"{BASE}/{world.agent.store.public_id}/memories", {"path": "/a.md", "content": "x"}, format="json"
    )
    # A deactivated agent no longer authenticates at all (issue 9 s.5; tests/stores/test_inactive_agent.py).
    assert r.status_code == 401
    assert r.json()["error"]["type"] == "authentication_error"


def test_a_run_token_reaches_only_the_stores_attached_to_its_run(api, world):
    """ada's pods also cover another project; her run on ACME must not reach that project's store."""
    second = f.make_project("SCND", client=world.client)
    world.pod.projects.add(second)
    token = run_token_for(world.agent, world.project, "ACME-9")
    r = api.as_token(token).get(f"{BASE}/{second.store.public_id}/memories")
    assert r.status_code == 404
    r = api.as_token(token).post(
        f"{BASE}/{second.store.public_id}/memories", {"path": "/conventions/x.md", "content": "x"}, format="json"
    )
    assert r.status_code == 404
    assert api.as_token(world.agent_token).get(f"{BASE}/{second.store.public_id}/memories").status_code == 200
