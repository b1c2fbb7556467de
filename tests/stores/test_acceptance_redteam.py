"""Red-team acceptance cases: what must not be stored, tried through every door, with cases nobody wrote.

Each refusal must leave the store exactly as it was (memories and versions), record one Refusal
per distinct (writer, path, content hash, code) however often it is resent, never keep the
refused text (nor quote a secret in its message), and answer in the error envelope with
``error.details.error_code`` and a message a person can act on.

Every secret here is assembled at run time from fragments, so the repository stays clean under
detect-secrets.
"""

from __future__ import annotations

import base64
import io
import json
import random
import secrets as pysecrets
import string
import time

import pytest
from django.core.cache import cache
from django.core.management import call_command

from runs.models import Run
from runs.services import run_attachments
from stores.console_checks.detectors import instructions, secrets
from stores.console_checks.detectors.client_detail import ClientDetailMatcher, ClientTerm
from stores.models import Memory, Refusal, SetAside, Store, hash_token
from stores.services.tokens import RUN_TOKEN_PREFIX
from tests import factories as f

pytestmark = pytest.mark.django_db

BASE = "/api/v1/memory_stores"
RNG = random.Random(4242)
ALNUM = string.ascii_letters + string.digits
UPPER_DIGITS = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"


def rnd(n: int, alphabet: str = ALNUM) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(n))


# Fragments: no secret-shaped literal is ever whole in this file.
AK = "AK" + "IA"
GHP = "gh" + "p_"
ANT = "sk-" + "ant-" + "api03-"
XOXB = "xo" + "xb-"
ATATT = "ATA" + "TT3x"
PEM_BEGIN, PEM_END = "-----" + "BEGIN ", "-----" + "END "
PASSWORD = "Tr0ub4" + "dor&3x"


def aws_key_id() -> str:
    return AK + rnd(16, UPPER_DIGITS)


# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


def store_state(store: Store) -> tuple:
    """Everything a refusal must leave alone: live and deleted memories, and every version."""
    memories = sorted(
        Memory.objects.filter(store=store).values_list(
            "public_id", "path", "content", "content_sha256", "deleted_at", "head_version_id", "redacted_at"
        )
    )
    versions = sorted(Memory.history.filter(store_id=store.pk).values_list("version_id", "path", "content", "operation"))
    return memories, versions, Store.objects.get(pk=store.pk).change_seq


def run_token_for(agent, project, ticket_key: str) -> tuple[Run, str]:
    secret = RUN_TOKEN_PREFIX + pysecrets.token_urlsafe(24)
    run = Run.objects.create(agent=agent, project=project, ticket_key=ticket_key, token_hash=hash_token(secret),
                             attachments=run_attachments(agent, project))
    return run, secret


def create(api, token: str, store: Store, path, content):
    return api.as_token(token).post(f"{BASE}/{store.public_id}/memories", {"path": path, "content": content},
                                    format="json")


def update(api, token: str, store: Store, memory_id: str, **body):
    return api.as_token(token).post(f"{BASE}/{store.public_id}/memories/{memory_id}", body, format="json")


def assert_refused(response, code: str, status: int = 400, *, hidden: tuple[str, ...] = ()) -> None:
    """The answer is the error envelope with the code, and a message a person can act on."""
    assert response.status_code == status, response.content
    body = response.json()
    assert body["type"] == "error"
    assert body["error"]["details"]["error_code"] == code, body
    message = body["error"]["message"]
    assert len(message.split()) >= 6, message  # a sentence, not a bare code
    for text in hidden:
        assert text not in message, "the answer must not quote the refused secret"
        assert text not in json.dumps(body)


def assert_one_refusal_kept_clean(store: Store, code: str, *, hidden: tuple[str, ...] = ()) -> Refusal:
    rows = list(Refusal.objects.filter(store=store, code=code))
    assert len(rows) == 1, [(r.path, r.code, r.times) for r in rows]
    row = rows[0]
    for text in hidden:
        assert text not in row.message
        assert text not in row.path
        assert text not in json.dumps(row.writer)
    return row


def refused_everywhere_alike(api, token, store, path, content, code, *, status=400, hidden=()) -> None:
    """Send the bad create three times: same code each time, the store untouched, one Refusal."""
    before = store_state(store)
    for _ in range(3):
        assert_refused(create(api, token, store, path, content), code, status, hidden=hidden)
    assert store_state(store) == before
    row = assert_one_refusal_kept_clean(store, code, hidden=hidden)
    assert row.times == 3


# --------------------------------------------------------------------------------------------
# Where: lookalike folders are refused, never normalised into an allowed folder
# --------------------------------------------------------------------------------------------

OUTSIDE, INVALID, NOT_OWN = "path_outside_folders", "path_invalid", "not_own_agent_folder"

PATH_CASES = [
    # label, path (agent "ada" writing to the ACME project store), expected code
    ("upper-case folder", "/CONVENTIONS/x.md", OUTSIDE),
    ("title-case folder", "/Data/x.md", OUTSIDE),
    ("fullwidth letter", "/\uff43onventions/x.md", OUTSIDE),
    ("cyrillic o", "/c\u043enventions/x.md", OUTSIDE),
    ("greek omicron", "/rati\u03bfnale/x.md", OUTSIDE),
    ("dotless i", "/convent\u0131ons/x.md", OUTSIDE),
    ("long s", "/i\u017f\u017fues/x.md", OUTSIDE),
    ("NFD combining mark", "/conventio\u0301ns/x.md", INVALID),
    ("NFC accented lookalike", "/convention\u00e9/x.md", OUTSIDE),
    ("zero-width space", "/data\u200b/x.md", INVALID),
    ("zero-width joiner", "/solu\u200dtions/x.md", INVALID),
    ("word joiner", "/issues\u2060/x.md", INVALID),
    ("BOM", "/\ufeffdata/x.md", INVALID),
    ("bidi override", "/data/\u202ex.md", INVALID),
    ("unicode tag", "/data\U000e0041/x.md", INVALID),
    ("trailing dot", "/data./x.md", OUTSIDE),
    ("trailing space", "/issues /x.md", OUTSIDE),
    ("leading space", "/ issues/x.md", OUTSIDE),
    ("no-break space", "/issues\u00a0/x.md", OUTSIDE),
    ("ideographic space", "/issues\u3000/x.md", OUTSIDE),
    ("hangul filler", "/issues\u3164/x.md", OUTSIDE),
    ("percent-encoded letter", "/%63onventions/x.md", OUTSIDE),
    ("percent-encoded slash", "/conventions%2Fx.md", OUTSIDE),
    ("backslash separator", "/conventions\\x.md", OUTSIDE),
    ("backslash escape to agents", "/conventions\\..\\agents\\bob\\x.md", OUTSIDE),
    ("fraction slash", "/data\u2044x.md", OUTSIDE),
    ("fullwidth slash", "/data\uff0fx.md", OUTSIDE),
    ("double slash first", "//conventions/x.md", INVALID),
    ("double slash inside", "/conventions//x.md", INVALID),
    ("dot-dot into agents", "/conventions/../agents/bob/x.md", INVALID),
    ("dot segment", "/data/./x.md", INVALID),
    ("hidden segment", "/data/.x.md", INVALID),
    ("trailing slash", "/data/x.md/", INVALID),
    ("not markdown", "/data/x.txt", INVALID),
    ("markdown upper-case", "/data/x.MD", INVALID),
    ("trailing space after .md", "/data/x.md ", INVALID),
    ("newline", "/data/x.md\n", INVALID),
    ("relative", "data/x.md", INVALID),
    ("line separator", "/data/\u2028x.md", INVALID),
    ("SDK marker", "/.anthropic-memory-store", INVALID),
    ("root file", "/x.md", OUTSIDE),
    ("folder name as file", "/issues.md", OUTSIDE),
    ("agents root file", "/agents/x.md", OUTSIDE),
    ("own folder as a file", "/agents/ada.md", OUTSIDE),
    ("own folder name without .md", "/agents/ada", INVALID),
    ("own folder trailing slash", "/agents/ada/", INVALID),
    ("another agent's folder", "/agents/bob/x.md", NOT_OWN),
    ("another agent's nested folder", "/agents/bob/deep/x.md", NOT_OWN),
    ("own name upper-case", "/agents/ADA/x.md", NOT_OWN),
    ("own name fullwidth", "/agents/\uff41da/x.md", NOT_OWN),
    ("own name cyrillic a", "/agents/\u0430da/x.md", NOT_OWN),
    ("own name trailing dot", "/agents/ada./x.md", NOT_OWN),
    ("own name trailing space", "/agents/ada /x.md", NOT_OWN),
    ("own name zero-width", "/agents/ada\u200b/x.md", INVALID),
    ("agents folder upper-case", "/Agents/ada/x.md", OUTSIDE),
    ("own folder under a fixed folder is fine", "/data/agents/bob/x.md", None),
]


@pytest.mark.parametrize("label,path,code", PATH_CASES, ids=[c[0] for c in PATH_CASES])
def test_lookalike_paths_are_refused_through_the_api(api, world, label, path, code):
    store = world.project_store
    if code is None:
        r = create(api, world.agent_token, store, path, "A plain lesson about partitions.\n")
        assert r.status_code == 200, r.json()
        return
    refused_everywhere_alike(api, world.agent_token, store, path, "A plain lesson about partitions.\n", code)


RENAME_CASES = [
    # label, existing path (made by an admin), new path, expected code
    ("own note into another agent's folder", "/agents/ada/x.md", "/agents/bob/x.md", NOT_OWN),
    ("fixed folder into another agent's folder", "/data/x.md", "/agents/bob/x.md", NOT_OWN),
    ("another agent's note out to a fixed folder", "/agents/bob/x.md", "/data/x.md", NOT_OWN),
    ("another agent's note into own folder", "/agents/bob/x.md", "/agents/ada/x.md", NOT_OWN),
    ("into a case lookalike", "/data/x.md", "/DATA/x.md", OUTSIDE),
    ("into a fullwidth lookalike", "/data/x.md", "/\uff44ata/x.md", OUTSIDE),
    ("onto own folder as a file", "/agents/ada/x.md", "/agents/ada.md", OUTSIDE),
    ("into a zero-width lookalike", "/data/x.md", "/da\u200bta/x.md", INVALID),
    ("into dot-dot", "/data/x.md", "/data/../agents/bob/x.md", INVALID),
    ("into NFD", "/data/x.md", "/data/re\u0301sume\u0301.md", INVALID),
]


@pytest.mark.parametrize("label,old,new,code", RENAME_CASES, ids=[c[0] for c in RENAME_CASES])
def test_renames_are_checked_at_both_ends(api, world, label, old, new, code):
    store = world.project_store
    memory = f.make_memory(store, old, "A plain lesson.\n")
    before = store_state(store)
    for _ in range(2):
        assert_refused(update(api, world.agent_token, store, memory.public_id, path=new), code)
    assert store_state(store) == before
    assert Refusal.objects.get(store=store, code=code).times == 2


# --------------------------------------------------------------------------------------------
# Who: inactive agents, other pods, reassigned or moved tickets, Jira down/slow/wrong, tokens
# --------------------------------------------------------------------------------------------


@pytest.fixture
def assigned(world, jira_standin):
    """An agent in no pod covering ACME, working ACME-7 in a run; Jira says the ticket is its own."""
    cache.clear()
    agent = f.make_agent("asha", jira_account_id="acc-asha")
    jira_standin.set_issue("ACME-7", "ACME", "acc-asha")
    run, token = run_token_for(agent, world.project, "ACME-7")
    return agent, run, token


def test_the_assigned_route_works_when_jira_agrees(api, world, assigned):
    _agent, _run, token = assigned
    r = create(api, token, world.project_store, "/agents/asha/x.md", "A plain lesson.\n")
    assert r.status_code == 200, r.json()


@pytest.mark.parametrize("trouble", ["down", "slow", "500", "html", "missing_fields"])
def test_jira_trouble_refuses_the_jira_route_with_jira_unavailable(api, world, assigned, jira_standin, settings,
                                                                   trouble):
    _agent, _run, token = assigned
    settings.JIRA_TIMEOUT_SECONDS = 0.4
    if trouble == "down":
        jira_standin.down()
    elif trouble == "slow":
        jira_standin.slow(1.5)
    else:
        jira_standin.wrong(trouble)
    cache.clear()
    refused_everywhere_alike(api, token, world.project_store, "/agents/asha/x.md", "A plain lesson.\n",
                             "jira_unavailable", status=403)
    # The pod route does not need Jira.
    pod_run, pod_token = run_token_for(world.agent, world.project, "ACME-8")
    assert create(api, pod_token, world.project_store, "/agents/ada/x.md", "A plain lesson.\n").status_code == 200


def test_a_ticket_reassigned_a_moment_ago_no_longer_counts(api, world, assigned, jira_standin):
    _agent, _run, token = assigned
    jira_standin.set_issue("ACME-7", "ACME", "acc-someone-else")
    cache.clear()
    refused_everywhere_alike(api, token, world.project_store, "/agents/asha/x.md", "A plain lesson.\n",
                             "not_in_pod_or_assigned", status=403)


def test_a_ticket_moved_to_another_project_no_longer_opens_the_old_project(api, world, assigned, jira_standin):
    """Jira answers for the old key with the issue as it is now: in another project. That is not ACME's ticket."""
    _agent, _run, token = assigned
    jira_standin.set_issue("ACME-7", "OTHR", "acc-asha")
    cache.clear()
    refused_everywhere_alike(api, token, world.project_store, "/agents/asha/x.md", "A plain lesson.\n",
                             "not_in_pod_or_assigned", status=403)


def test_an_unknown_ticket_does_not_count(api, world, assigned, jira_standin):
    _agent, _run, token = assigned
    jira_standin.remove_issue("ACME-7")
    cache.clear()
    refused_everywhere_alike(api, token, world.project_store, "/agents/asha/x.md", "A plain lesson.\n",
                             "not_in_pod_or_assigned", status=403)


def test_an_inactive_agent_is_refused_with_its_own_token_and_its_run_token(api, world):
    run, run_token = run_token_for(world.agent, world.project, "ACME-3")
    world.agent.active = False
    world.agent.save()
    for store in (world.project_store, world.agent.store):
        before = store_state(store)
        r = create(api, world.agent_token, store, "/agents/ada/x.md", "A plain lesson.\n")
        assert_refused(r, "not_a_hosted_agent", 403)
        assert create(api, run_token, store, "/agents/ada/x.md", "A plain lesson.\n").status_code == 401
        assert store_state(store) == before


def test_a_run_token_stops_writing_when_its_run_ends(api, world):
    run, token = run_token_for(world.agent, world.project, "ACME-4")
    assert create(api, token, world.project_store, "/agents/ada/a.md", "A plain lesson.\n").status_code == 200
    r = api.as_token(token).post(f"/api/v1/runs/{run.public_id}/end", {}, format="json")
    assert r.status_code == 200, r.json()
    before = store_state(world.project_store)
    r = create(api, token, world.project_store, "/agents/ada/b.md", "A plain lesson.\n")
    assert r.status_code == 401
    assert r.json()["error"]["type"] == "authentication_error"
    assert store_state(world.project_store) == before


def test_an_agent_of_another_pod_cannot_reach_the_store_with_any_token(api, world, jira_standin):
    cache.clear()
    jira_standin.set_issue("OTHR-1", "OTHR", "acc-bob")
    _run, bob_run = run_token_for(world.outsider, world.other_project, "OTHR-1")
    for token in (world.outsider_token, bob_run):
        before = store_state(world.project_store)
        r = create(api, token, world.project_store, "/agents/bob/x.md", "A plain lesson.\n")
        assert r.status_code == 404
        assert r.json()["error"]["type"] == "not_found_error"
        r = create(api, token, world.agent.store, "/x.md", "A plain lesson.\n")
        assert r.status_code == 404
        assert store_state(world.project_store) == before


def test_an_agent_token_cannot_make_store_admin_calls(api, world):
    api.as_token(world.agent_token)
    store = world.project_store
    before = (Store.objects.count(), Store.objects.get(pk=store.pk).name, store_state(store))
    calls = [
        api.post(BASE, {"name": "Sneaky"}, format="json"),
        api.post(f"{BASE}/{store.public_id}", {"name": "Renamed"}, format="json"),
        api.post(f"{BASE}/{store.public_id}/archive", {}, format="json"),
        api.delete(f"{BASE}/{store.public_id}"),
        api.post(f"{BASE}/{world.agent.store.public_id}", {"description": "mine now"}, format="json"),
    ]
    for r in calls:
        assert r.status_code == 403, r.json()
        assert r.json()["error"]["details"]["error_code"]
    assert (Store.objects.count(), Store.objects.get(pk=store.pk).name, store_state(store)) == before


def test_an_agent_token_cannot_restore_or_redact(api, world):
    store = world.project_store
    memory = f.make_memory(store, "/data/x.md", "A plain lesson.\n")
    api.as_token(world.admin_token).delete(f"{BASE}/{store.public_id}/memories/{memory.public_id}")
    before = store_state(store)
    version_id = Memory.history.filter(store_id=store.pk).first().version_id
    for token in (world.agent_token, run_token_for(world.agent, world.project, "ACME-5")[1]):
        api.as_token(token)
        for url in (f"{BASE}/{store.public_id}/deleted_memories/{memory.public_id}/restore",
                    f"{BASE}/{store.public_id}/deleted_memories/{memory.public_id}/redact",
                    f"{BASE}/{store.public_id}/memory_versions/{version_id}/redact"):
            r = api.post(url, {}, format="json")
            assert r.status_code in (403, 404), (url, r.json())
    assert store_state(store) == before


def test_person_tokens_only_delete_restore_and_redact_in_their_own_project(api, world):
    store = world.project_store
    other_store = world.other_project.store
    mine = f.make_memory(store, "/data/mine.md", "A plain lesson.\n")
    theirs = f.make_memory(other_store, "/data/theirs.md", "A plain lesson.\n")
    contact = world.contact_token
    # Writing notes is for agents: create, update and rename answer not_a_hosted_agent, and change nothing.
    before = store_state(store)
    assert_refused(create(api, contact, store, "/data/new.md", "A plain lesson.\n"), "not_a_hosted_agent", 403)
    assert_refused(update(api, contact, store, mine.public_id, content="Changed.\n"), "not_a_hosted_agent", 403)
    assert_refused(update(api, contact, store, mine.public_id, path="/data/moved.md"), "not_a_hosted_agent", 403)
    assert store_state(store) == before
    # Another project's store, and any agent store, do not exist for this contact.
    other_before = store_state(other_store)
    assert api.as_token(contact).delete(f"{BASE}/{other_store.public_id}/memories/{theirs.public_id}").status_code == 404
    assert create(api, contact, world.agent.store, "/x.md", "x").status_code == 404
    assert store_state(other_store) == other_before
    # Delete, restore and redact in the contact's own project.
    assert api.as_token(contact).delete(f"{BASE}/{store.public_id}/memories/{mine.public_id}").status_code == 200
    restore = f"{BASE}/{store.public_id}/deleted_memories/{mine.public_id}/restore"
    assert api.as_token(contact).post(restore, {}, format="json").status_code == 200
    assert api.as_token(contact).delete(f"{BASE}/{store.public_id}/memories/{mine.public_id}").status_code == 200
    redact = f"{BASE}/{store.public_id}/deleted_memories/{mine.public_id}/redact"
    assert api.as_token(contact).post(redact, {}, format="json").status_code == 200
    assert Memory.objects.get(pk=mine.pk).redacted_at is not None
    # Version redaction is for admins only.
    version_id = Memory.history.filter(store_id=store.pk).first().version_id
    r = api.as_token(contact).post(f"{BASE}/{store.public_id}/memory_versions/{version_id}/redact", {}, format="json")
    assert r.status_code == 403


# --------------------------------------------------------------------------------------------
# When: stale bases and memories people deleted
# --------------------------------------------------------------------------------------------


def sha(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.mark.parametrize("door", ["agent token", "run token"])
def test_a_stale_base_loses_and_its_text_is_kept_aside_exactly_once(api, world, door):
    store = world.project_store
    token = world.agent_token if door == "agent token" else run_token_for(world.agent, world.project, "ACME-6")[1]
    old = "# Loads\n\nLoads run at 02:00.\n"
    memory = f.make_memory(store, "/data/loads.md", old)
    saved = "# Loads\n\nLoads run at 03:00 since May.\n"
    assert update(api, world.agent_token, store, memory.public_id, content=saved).status_code == 200
    before = store_state(store)
    mine = "# Loads\n\nLoads run at 02:00; the 04:00 retry catches late files.\n"
    precondition = {"type": "content_sha256", "content_sha256": sha(old)}
    for _ in range(3):
        r = update(api, token, store, memory.public_id, content=mine, precondition=precondition)
        assert_refused(r, "stale_base", 409)
    assert store_state(store) == before
    kept = SetAside.objects.filter(memory=memory)
    assert kept.count() == 1 and kept.get().text == mine
    assert Refusal.objects.get(store=store, code="stale_base").times == 3


def test_a_stale_base_carrying_a_secret_is_refused_for_the_secret_and_never_kept_aside(api, world):
    store = world.project_store
    old = "# Loads\n\nLoads run at 02:00.\n"
    memory = f.make_memory(store, "/data/loads.md", old)
    assert update(api, world.agent_token, store, memory.public_id, content="# Loads\n\nAt 03:00.\n").status_code == 200
    key = aws_key_id()
    bad = f"# Loads\n\nThe loader signs in as {key}.\n"
    r = update(api, world.agent_token, store, memory.public_id, content=bad,
               precondition={"type": "content_sha256", "content_sha256": sha(old)})
    assert_refused(r, "secret_detected", hidden=(key,))
    assert not SetAside.objects.filter(memory=memory).exists()


@pytest.fixture
def deleted_after_start(api, world):
    """A run started, then a person deleted a memory the run had."""
    store = world.project_store
    memory = f.make_memory(store, "/data/quirk.md", "# Quirk\n\nOrders arrive late on Mondays.\n")
    run, token = run_token_for(world.agent, world.project, "ACME-10")
    Run.objects.filter(pk=run.pk).update(started_at=run.started_at - __import__("datetime").timedelta(seconds=5))
    r = api.as_token(world.contact_token).delete(f"{BASE}/{store.public_id}/memories/{memory.public_id}")
    assert r.status_code == 200
    return store, memory, run, token


def test_a_run_cannot_bring_back_what_a_person_deleted_after_it_started(api, world, deleted_after_start):
    store, memory, run, token = deleted_after_start
    before = store_state(store)
    text = "# Quirk\n\nOrders arrive late on Mondays and Tuesdays.\n"
    for _ in range(2):
        assert_refused(create(api, token, store, "/data/quirk.md", text), "deleted_by_person")
        assert update(api, token, store, memory.public_id, content=text).status_code == 404
    other = f.make_memory(store, "/data/other.md", "Another lesson.\n")
    assert_refused(update(api, token, store, other.public_id, path="/data/quirk.md"), "deleted_by_person")
    assert Refusal.objects.filter(store=store, code="deleted_by_person").count() == 2
    # A run started later may create it.
    _later, later_token = run_token_for(world.agent, world.project, "ACME-11")
    assert create(api, later_token, store, "/data/quirk.md", text).status_code == 200
    assert before[0][0][0] == memory.public_id


def test_a_run_cannot_bring_back_a_deleted_memory_even_after_it_was_redacted(api, world, deleted_after_start):
    store, memory, run, token = deleted_after_start
    r = api.as_token(world.contact_token).post(
        f"{BASE}/{store.public_id}/deleted_memories/{memory.public_id}/redact", {}, format="json")
    assert r.status_code == 200
    before = store_state(store)
    assert_refused(create(api, token, store, "/data/quirk.md", "# Quirk\n\nStill late.\n"), "deleted_by_person")
    assert store_state(store) == before
