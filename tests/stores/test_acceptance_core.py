"""Acceptance of the store core and its agent API from outside (issue 2), with inputs nobody
planned for: each test here pins a discrepancy an outside review found, so it stays fixed.

Ugly inputs must answer 400 or 404 in Anthropic's envelope, never 500 and never HTML: NUL and
lone surrogates in store fields, paths, ids and filters; impossible or edge-of-calendar
timestamps; bodies nested thousands deep; unknown routes under /api/. Also: the schema describes
what the API really answers, the operator commands print exactly the keys the issue names, the
admin loads for every model and stays read-only where memory is, and a byte-order mark survives
an import and export round trip.
"""

from __future__ import annotations

import base64
import io
import json
from datetime import UTC, datetime, timedelta, timezone

import anthropic
import pytest
import requests
from django.contrib import admin
from django.core.management import call_command
from django.urls import reverse

from runs.models import Run, RunRecord
from stores.models import ApiToken, Memory, Refusal, SetAside, StandingDecision, Store, hash_token
from stores.services.transfer import store_export, store_import
from tests import factories as f

pytestmark = pytest.mark.django_db

BASE = "/api/v1/memory_stores"
NUL = "\u0000"
SURROGATE = "\ud800"


def raw_post(api, url: str, body: dict):
    """POST ``body`` as JSON text (lone surrogates travel as their \\u escape, as from any client)."""
    return api.post(url, data=json.dumps(body), content_type="application/json")


def assert_envelope(response, status: int, error_type: str) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["type"] == "error" and body["error"]["type"] == error_type
    assert body["request_id"].startswith("req_") and body["request_id"] == response["request-id"]
    return body


# Text no database can hold --------------------------------------------------------------------


STORE_FIELD_CASES = [
    ("name NUL", {"name": f"a{NUL}b"}),
    ("name surrogate", {"name": f"a{SURROGATE}b"}),
    ("description NUL", {"name": "ok", "description": f"a{NUL}b"}),
    ("description surrogate", {"name": "ok", "description": SURROGATE}),
    ("metadata value NUL", {"name": "ok", "metadata": {"team": f"a{NUL}"}}),
    ("metadata value surrogate", {"name": "ok", "metadata": {"team": SURROGATE}}),
    ("metadata key NUL", {"name": "ok", "metadata": {f"k{NUL}": "v"}}),
    ("metadata key surrogate", {"name": "ok", "metadata": {f"k{SURROGATE}": "v"}}),
]


@pytest.mark.parametrize("label,body", STORE_FIELD_CASES, ids=[c[0] for c in STORE_FIELD_CASES])
def test_store_fields_holding_nul_or_a_lone_surrogate_are_400_and_change_nothing(api, world, label, body):
    api.as_token(world.admin_token)
    sid = api.post(BASE, {"name": "Kept", "metadata": {"team": "data"}}, format="json").json()["id"]
    before = Store.objects.count()
    assert_envelope(raw_post(api, BASE, body), 400, "invalid_request_error")
    assert Store.objects.count() == before
    assert_envelope(raw_post(api, f"{BASE}/{sid}", body), 400, "invalid_request_error")
    kept = api.get(f"{BASE}/{sid}").json()
    assert (kept["name"], kept["description"], kept["metadata"]) == ("Kept", "", {"team": "data", "kind": "shared"})
    # The store list, which renders every store, still answers.
    assert api.get(BASE + "?limit=100").status_code == 200


@pytest.mark.parametrize("bad", [NUL, SURROGATE, f"/a{NUL}.md", f"/a{SURROGATE}.md", f"/notes/{NUL}/x.md"])
def test_paths_holding_nul_or_a_lone_surrogate_are_400_and_the_refusal_is_recorded(api, world, bad):
    api.as_token(world.agent_token)
    sid = world.agent.store.public_id
    memory = api.post(f"{BASE}/{sid}/memories", {"path": "/kept.md", "content": "kept"}, format="json").json()
    body = assert_envelope(raw_post(api, f"{BASE}/{sid}/memories", {"path": bad, "content": "x"}),
                           400, "invalid_request_error")
    assert body["error"]["details"]["error_code"] == "path_invalid"
    body = assert_envelope(raw_post(api, f"{BASE}/{sid}/memories/{memory['id']}", {"path": bad}),
                           400, "invalid_request_error")
    assert body["error"]["details"]["error_code"] == "path_invalid"
    assert list(Memory.objects.filter(store=world.agent.store).values_list("path", flat=True)) == ["/kept.md"]
    recorded = list(Refusal.objects.filter(store=world.agent.store).values_list("path", flat=True))
    assert recorded and all(NUL not in p and SURROGATE not in p for p in recorded)


def nul_urls(sid: str, mid: str, vid: str) -> list[tuple[str, str]]:
    bad = "a%00b"
    return [
        ("get", f"{BASE}/{bad}"),
        ("post", f"{BASE}/{bad}/archive"),
        ("delete", f"{BASE}/{bad}"),
        ("get", f"{BASE}/{bad}/memories"),
        ("get", f"{BASE}/{bad}/memory_versions"),
        ("get", f"{BASE}/{sid}/memories/{bad}"),
        ("post", f"{BASE}/{sid}/memories/{bad}"),
        ("delete", f"{BASE}/{sid}/memories/{bad}"),
        ("get", f"{BASE}/{sid}/memory_versions/{bad}"),
        ("post", f"{BASE}/{sid}/memory_versions/{bad}/redact"),
        # The people's and the runs' routes share the API's base view, and so its guard.
        ("get", f"{BASE}/{bad}/set_asides"),
        ("get", f"{BASE}/{bad}/refusals"),
        ("get", f"{BASE}/{bad}/deleted_memories"),
        ("post", f"{BASE}/{sid}/deleted_memories/{bad}/restore"),
        ("get", f"/api/v1/runs/{bad}"),
        ("get", f"/api/v1/runs/{bad}/changes"),
        ("post", f"/api/v1/runs/{bad}/end"),
    ]


def test_ids_holding_nul_are_404_and_filters_holding_nul_are_400(api, world):
    """PostgreSQL text cannot hold NUL: before, each of these was a 500 there."""
    api.as_token(world.admin_token)
    sid = world.agent.store.public_id
    memory = f.make_memory(world.agent.store, "/a.md", "a")
    for method, url in nul_urls(sid, memory.public_id, memory.head_version_id):
        response = getattr(api, method)(url, {"content": "x"}, format="json") if method == "post" else \
            getattr(api, method)(url)
        assert_envelope(response, 404, "not_found_error")
    for name in ("memory_id", "session_id", "api_key_id", "operation", "service_account_id"):
        assert_envelope(api.get(f"{BASE}/{sid}/memory_versions?{name}=a%00b"), 400, "invalid_request_error")
    assert_envelope(api.get(f"{BASE}/{sid}/memories?path_prefix=/a%00/"), 400, "invalid_request_error")
    assert memory.history.count() == 1


@pytest.mark.postgres
def test_nul_in_ids_filters_and_store_fields_never_reaches_postgresql(api, world):
    test_ids_holding_nul_are_404_and_filters_holding_nul_are_400(api, world)
    api.as_token(world.admin_token)
    for _, body in STORE_FIELD_CASES:
        assert raw_post(api, BASE, body).status_code == 400


# Timestamps, cursors and bodies ---------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    ["2026-13-45T00:00:00Z", "2026-02-30T00:00:00Z", "2026-01-01T25:00:00Z", "9999-12-31T23:59:59-05:00",
     "0001-01-01T00:00:00+05:00", "yesterday"],
)
def test_impossible_or_out_of_range_timestamps_are_400(api, world, value):
    api.as_token(world.admin_token)
    sid = world.agent.store.public_id
    for url in (BASE, f"{BASE}/{sid}/memory_versions"):
        for bound in ("created_at[gte]", "created_at[lte]"):
            response = api.get(url, {bound: value})
            body = assert_envelope(response, 400, "invalid_request_error")
            assert bound in body["error"]["message"]


def test_timestamps_with_z_or_offset_bound_inclusively(api, world):
    api.as_token(world.agent_token)
    sid = world.agent.store.public_id
    mid = api.post(f"{BASE}/{sid}/memories", {"path": "/t.md", "content": "1"}, format="json").json()["id"]
    api.post(f"{BASE}/{sid}/memories/{mid}", {"content": "2"}, format="json")
    versions = api.get(f"{BASE}/{sid}/memory_versions").json()["data"]
    newest = datetime.fromisoformat(versions[0]["created_at"].replace("Z", "+00:00"))
    for spelled in (versions[0]["created_at"], newest.isoformat(), newest.astimezone(UTC).isoformat(),
                    newest.astimezone(timezone(timedelta(hours=2))).isoformat()):
        got = api.get(f"{BASE}/{sid}/memory_versions", {"created_at[gte]": spelled}).json()["data"]
        assert [v["id"] for v in got] == [versions[0]["id"]], spelled
        got = api.get(f"{BASE}/{sid}/memory_versions", {"created_at[lte]": spelled}).json()["data"]
        assert [v["id"] for v in got] == [v["id"] for v in versions], spelled


def forged_cursor(key: list) -> str:
    return "page_" + base64.urlsafe_b64encode(json.dumps(key).encode()).decode().rstrip("=")


def test_forged_cursors_at_the_edge_of_the_calendar_are_400(api, world):
    api.as_token(world.admin_token)
    sid = world.agent.store.public_id
    for key in (["9999-12-31T23:59:59-05:00", 1], ["0001-01-01T00:00:00+05:00", 1], ["2026-13-01T00:00:00Z", 1]):
        for url in (BASE, f"{BASE}/{sid}/memory_versions"):
            assert_envelope(api.get(url, {"page": forged_cursor(key)}), 400, "invalid_request_error")


def test_a_body_nested_thousands_deep_is_400(api, world):
    api.as_token(world.agent_token)
    body = '{"path": "/deep.md", "content": "x", "extra": ' + "[" * 50000 + "]" * 50000 + "}"
    response = api.post(f"{BASE}/{world.agent.store.public_id}/memories", data=body, content_type="application/json")
    assert_envelope(response, 400, "invalid_request_error")
    assert not Memory.objects.filter(path="/deep.md").exists()


# Routes nothing answers, and crashes ---------------------------------------------------------


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("method", ["get", "post", "delete"])
@pytest.mark.parametrize("url", [f"{BASE}/", "/api/v1/memory_stores/{sid}/memories/", "/api/v1/nothing", "/api/v2"])
def test_unknown_api_routes_answer_404_in_the_envelope(api, world, settings, method, url, debug):
    settings.DEBUG = debug  # `make run` has DEBUG on: still the envelope, never Django's debug page
    api.as_token(world.agent_token)
    response = getattr(api, method)(url.format(sid=world.agent.store.public_id))
    body = assert_envelope(response, 404, "not_found_error")
    assert ("trailing slash" in body["error"]["message"]) == url.endswith("/")


@pytest.mark.parametrize("debug", [False, True])
def test_the_api_pages_still_get_their_trailing_slash(client, settings, debug):
    settings.DEBUG = debug
    response = client.get("/api/docs")
    assert response.status_code == 301 and response["location"] == "/api/docs/"


def test_pages_for_people_keep_their_html_404(client):
    response = client.get("/console/no-such-page")
    assert response.status_code in (302, 404)
    assert not response["Content-Type"].startswith("application/json")


def test_a_crash_in_the_api_answers_500_in_the_envelope(world, monkeypatch):
    from stores.api import views
    from tests.conftest import Api

    def crash(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(views.selectors, "stores_for_writer", crash)
    api = Api(raise_request_exception=False)
    body = assert_envelope(api.as_token(world.agent_token).get(BASE), 500, "api_error")
    assert "boom" not in body["error"]["message"]


# Stores ---------------------------------------------------------------------------------------


def test_a_new_store_was_updated_when_it_was_created(api, world):
    api.as_token(world.admin_token)
    store = api.post(BASE, {"name": "Fresh"}, format="json").json()
    assert store["updated_at"] == store["created_at"]
    again = api.get(f"{BASE}/{store['id']}").json()
    assert again["updated_at"] == again["created_at"] == store["created_at"]


def test_agents_managing_stores_or_redacting_are_refused_people_only(api, world):
    api.as_token(world.agent_token)
    sid = world.agent.store.public_id
    memory = api.post(f"{BASE}/{sid}/memories", {"path": "/a.md", "content": "a"}, format="json").json()
    for response in (
        api.post(BASE, {"name": "Mine"}, format="json"),
        api.post(f"{BASE}/{sid}", {"name": "Mine"}, format="json"),
        api.post(f"{BASE}/{sid}/archive"),
        api.delete(f"{BASE}/{sid}"),
        api.post(f"{BASE}/{sid}/memory_versions/{memory['memory_version_id']}/redact"),
    ):
        body = assert_envelope(response, 403, "permission_error")
        assert body["error"]["details"]["error_code"] == "people_only"
    store = Store.objects.get(pk=world.agent.store.pk)
    assert store.archived_at is None and store.name != "Mine"


# The schema -----------------------------------------------------------------------------------


def test_the_schema_describes_what_the_api_answers(api):
    from drf_spectacular.validation import validate_schema

    response = api.get("/api/schema/?format=json")
    assert response.status_code == 200
    schema = json.loads(response.content)
    validate_schema(schema)
    paths = schema["paths"]
    store, memory = paths["/api/v1/memory_stores/{store_id}"], paths["/api/v1/memory_stores/{store_id}/memories/{memory_id}"]
    for operation in (store["delete"], memory["delete"], store["post"], memory["post"], memory["patch"]):
        assert "200" in operation["responses"] and "204" not in operation["responses"]
    deleted = store["delete"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert deleted["properties"]["type"]["enum"] == ["memory_store_deleted"]
    create = paths["/api/v1/memory_stores/{store_id}/memories"]["post"]
    assert set(create["requestBody"]["content"]["application/json"]["schema"]["required"]) == {"path", "content"}
    assert "409" in create["responses"]
    listed = {p["name"] for p in paths["/api/v1/memory_stores/{store_id}/memory_versions"]["get"]["parameters"]}
    assert {"memory_id", "operation", "session_id", "api_key_id", "created_at[gte]", "created_at[lte]", "view",
            "limit", "page"} <= listed
    assert schema["components"]["securitySchemes"]["apiKeyAuth"] == {
        "type": "apiKey", "in": "header", "name": "x-api-key", "description": "The same token."
    }
    assert {"bearerAuth": []} in create["security"] and {"apiKeyAuth": []} in create["security"]
    operation_ids = [op["operationId"] for ops in paths.values() for op in ops.values()]
    assert len(operation_ids) == len(set(operation_ids))


# Operator commands ---------------------------------------------------------------------------


def command(*args: str) -> tuple[dict, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, "--json", stdout=out, stderr=err)
    text = out.getvalue().strip()
    assert "\n" not in text, text
    return json.loads(text), err.getvalue()


def test_every_command_of_item_5_prints_exactly_the_keys_the_issue_names(tmp_path, monkeypatch):
    monkeypatch.setenv("RV_PASSWORD", "pw-" + "for-tests-only")
    expected = [
        (("add_client", "Initech", "--alias", "INI", "--table", "ini.orders", "--distinctive", "orders"), {"name"}),
        (("add_toolset", "spark"), {"name", "memory_store_id"}),
        (("add_project", "INIT", "--client", "Initech", "--toolset", "spark"), {"key", "memory_store_id"}),
        (("add_agent", "zed", "--jira-account-id", "acc-zed"), {"name", "token", "memory_store_id"}),
        (("add_person", "pat", "--email", "pat@example.com", "--admin", "--password-env", "RV_PASSWORD"),
         {"username"}),
        (("add_api_token", "pat"), {"username", "token"}),
        (("set_agent", "zed", "--inactive", "--jira-account-id", "acc-zed-2"), {"name", "active"}),
        (("add_pod", "pod-init", "--agent", "zed", "--project", "INIT"), {"name"}),
        (("import_store", "toolset:spark", str(tmp_path), "--as", "pat"),
         {"memory_store_id", "created", "updated", "unchanged", "refused"}),
        (("export_store", "project:INIT", str(tmp_path / "out")),
         {"memory_store_id", "created", "updated", "unchanged", "refused"}),
    ]
    for args, keys in expected:
        result, _ = command(*args)
        assert set(result) == keys, args


def test_seed_demo_prints_exactly_agents_and_admin_and_the_login_on_stderr(monkeypatch):
    monkeypatch.delenv("DEMO_ADMIN_PASSWORD", raising=False)
    result, stderr = command("seed_demo")
    assert set(result) == {"agents", "admin"}
    assert result["admin"] == {"username": "admin"}
    assert all(set(agent) == {"name", "token"} for agent in result["agents"])
    password = stderr.split("admin / ", 1)[1].split()[0]
    assert password not in json.dumps(result)
    from django.contrib.auth import get_user_model

    assert get_user_model().objects.get(username="admin").check_password(password)


def test_a_byte_order_mark_survives_import_and_export(world, tmp_path):
    """Windows editors open UTF-8 files with U+FEFF; the exact bytes are the memory (no normalisation)."""
    source = tmp_path / "in"
    (source / "dbt").mkdir(parents=True)
    data = "\ufeffUse the merge strategy with incremental_predicates on BigQuery.\r\n".encode()
    (source / "dbt" / "merge.md").write_bytes(data)
    writer = f.person_writer(world.admin, door="import")
    result = store_import(world.practice, source, writer)
    assert (result.created, result.refused) == (1, [])
    memory = Memory.objects.get(store=world.practice, path="/dbt/merge.md")
    assert memory.content.encode() == data
    assert store_export(world.practice, tmp_path / "out").created >= 1
    assert (tmp_path / "out" / "dbt" / "merge.md").read_bytes() == data


def test_a_byte_order_mark_inside_the_text_is_still_refused(api, world):
    api.as_token(world.agent_token)
    r = api.post(f"{BASE}/{world.agent.store.public_id}/memories",
                 {"path": "/hidden.md", "content": "Use\ufeff the staging models.\n"}, format="json")
    body = assert_envelope(r, 400, "invalid_request_error")
    assert body["error"]["details"]["error_code"] == "instructions_detected"


# The admin ------------------------------------------------------------------------------------


@pytest.fixture
def every_row(world, api):
    """At least one row of every model the admin shows, made the way the console makes them."""
    memory = f.make_memory(world.project_store, "/conventions/naming.md", "Models are snake_case.\n")
    api.as_token(world.agent_token).post(
        f"{BASE}/{world.project_store.public_id}/memories/{memory.public_id}",
        {"content": "Models are snake_case; marts use fct_.\n",
         "precondition": {"type": "content_sha256", "content_sha256": "0" * 64}},
        format="json",
    )
    assert SetAside.objects.exists() and Refusal.objects.exists()
    StandingDecision.objects.create(project=world.project, title="Loyalty", text="Tiers live in dbt.")
    run = Run.objects.create(agent=world.agent, project=world.project, ticket_key="ACME-1",
                             token_hash=hash_token("mcr_" + "admin-page-run"))
    RunRecord.objects.create(run=run, project=world.project, created_at=run.started_at, transcript="t", events=[])
    from jira_link.models import JiraTicket

    JiraTicket.objects.create(key="ACME-1", project_key="ACME", assignee_account_id="acc-ada")
    assert ApiToken.objects.exists()
    return memory


def test_every_admin_page_loads_for_a_superuser(client, world, every_row):
    client.force_login(world.admin)
    assert client.get("/admin/").status_code == 200
    for model, model_admin in admin.site._registry.items():
        info = (model._meta.app_label, model._meta.model_name)
        assert client.get(admin_url(info, "changelist")).status_code == 200, info
        assert client.get(admin_url(info, "changelist"), {"q": "a"}).status_code == 200, info
        can_add = model_admin.has_add_permission(_request_for(world.admin))
        assert client.get(admin_url(info, "add")).status_code == (200 if can_add else 403), info
        row = model._default_manager.first()
        if row is not None:
            assert client.get(admin_url(info, "change", row.pk)).status_code == 200, info
            assert client.get(admin_url(info, "history", row.pk)).status_code == 200, info


def admin_url(info: tuple[str, str], page: str, *args) -> str:
    return reverse(f"admin:{info[0]}_{info[1]}_{page}", args=args)


def _request_for(user):
    from django.test import RequestFactory

    request = RequestFactory().get("/admin/")
    request.user = user
    return request


def test_memory_version_and_set_aside_admins_are_read_only(client, world, every_row):
    memory = every_row
    client.force_login(world.admin)
    request = _request_for(world.admin)
    for model in (Memory, Memory.history.model, SetAside):
        model_admin = admin.site._registry[model]
        assert not model_admin.has_add_permission(request)
        assert not model_admin.has_change_permission(request, model._default_manager.first())
        assert not model_admin.has_delete_permission(request, model._default_manager.first())
        info = (model._meta.app_label, model._meta.model_name)
        row = model._default_manager.first()
        change = admin_url(info, "change", row.pk)
        assert client.post(change, {"path": "/x.md", "content": "edited", "text": "edited"}).status_code == 403
        assert client.post(admin_url(info, "delete", row.pk), {"post": "yes"}).status_code == 403
        actions = client.get(admin_url(info, "changelist")).context["action_form"]
        assert actions is None or "delete_selected" not in str(actions)
    # A history revert through simple-history's page changes nothing either.
    oldest = memory.history.order_by("history_id").first()
    client.post(f"/admin/stores/memory/{memory.pk}/history/{oldest.history_id}/",
                {"path": "/reverted.md", "content": "reverted"})
    memory.refresh_from_db()
    assert (memory.path, memory.content) == ("/conventions/naming.md", "Models are snake_case.\n")
    assert memory.history.count() == 1
    assert SetAside.objects.get().text == "Models are snake_case; marts use fct_.\n"


# Live: the SDK's auto-paging with every version filter ---------------------------------------


@pytest.mark.django_db(transaction=True)
def test_sdk_walks_every_version_filter_one_page_at_a_time(live_server, world):
    c = anthropic.Anthropic(api_key=world.agent_token, base_url=f"{live_server.url}/api", max_retries=0)
    sid = world.agent.store.public_id
    memories = c.beta.memory_stores.memories
    first = memories.create(sid, path="/v/a.md", content="1")
    memories.update(first.id, memory_store_id=sid, content="2")
    memories.update(first.id, memory_store_id=sid, path="/v/b.md")
    other = memories.create(sid, path="/v/c.md", content="3")
    memories.delete(first.id, memory_store_id=sid)
    versions = c.beta.memory_stores.memory_versions
    everything = list(versions.list(sid, limit=100))
    assert [v.operation for v in everything] == ["deleted", "created", "modified", "modified", "created"]
    middle = everything[2].created_at
    key = everything[0].created_by.api_key_id
    filters = [
        {"memory_id": first.id},
        {"operation": "modified"},
        {"api_key_id": key},
        {"created_at_gte": middle},
        {"created_at_lte": middle},
        {"created_at_gte": middle, "created_at_lte": everything[0].created_at, "operation": "created",
         "api_key_id": key, "view": "full"},
    ]
    for kw in filters:
        walked = [v.id for v in versions.list(sid, limit=1, **kw)]
        whole = [v.id for v in versions.list(sid, limit=100, **kw)]
        assert walked == whole and len(set(walked)) == len(walked), kw
    assert [v.operation for v in versions.list(sid, memory_id=first.id)] == ["deleted", "modified", "modified",
                                                                             "created"]
    assert [v.memory_id for v in versions.list(sid, created_at_gte=middle, operation="created")] == [other.id]
    # The Z spelling, as curl users write it, narrows the same way.
    z = everything[2].created_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    r = requests.get(f"{live_server.url}{BASE}/{sid}/memory_versions", params={"created_at[gte]": z},
                     headers={"x-api-key": world.agent_token}, timeout=10)
    assert [v["id"] for v in r.json()["data"]] == [v.id for v in everything[:3]]
    # A trailing slash is a JSON 404, with the request id the SDK reads.
    r = requests.get(f"{live_server.url}{BASE}/", headers={"x-api-key": world.agent_token}, timeout=10)
    assert r.status_code == 404 and r.json()["request_id"] == r.headers["request-id"]
