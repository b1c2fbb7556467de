"""The memory endpoints through DRF's test client: shapes, status codes, validation, conflicts."""

from __future__ import annotations

import hashlib

import pytest

from stores.models import Memory, Refusal, SetAside

pytestmark = pytest.mark.django_db

BASE = "/api/v1/memory_stores"


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.fixture
def own(world, api):
    """The agent's own store, which it may write anywhere."""
    api.as_token(world.agent_token)
    return world.agent.store.public_id


def create(api, sid, path, content="A lesson.\n", **query):
    q = "&".join(f"{k}={v}" for k, v in query.items())
    return api.post(f"{BASE}/{sid}/memories" + (f"?{q}" if q else ""), {"path": path, "content": content}, format="json")


def error_code(response) -> str | None:
    return response.json()["error"].get("details", {}).get("error_code")


def test_create_returns_basic_view_with_exact_hash(api, own):
    r = create(api, own, "/notes/a.md", "héllo\r\n")
    assert r.status_code == 200
    body = r.json()
    assert body["type"] == "memory"
    assert body["id"].startswith("mem_")
    assert body["memory_store_id"] == own
    assert body["content"] is None
    assert body["content_sha256"] == sha("héllo\r\n")
    assert body["content_size_bytes"] == 8
    assert body["memory_version_id"].startswith("memver_")
    assert r["request-id"].startswith("req_")
    full = api.get(f"{BASE}/{own}/memories/{body['id']}").json()
    assert full["content"] == "héllo\r\n"


def test_create_with_view_full_returns_content(api, own):
    r = create(api, own, "/notes/a.md", "x", view="full")
    assert r.json()["content"] == "x"


def test_empty_content_makes_an_empty_memory(api, own):
    r = create(api, own, "/notes/empty.md", "")
    assert r.status_code == 200
    assert r.json()["content_size_bytes"] == 0


@pytest.mark.parametrize(
    "label,path",
    [
        ("relative", "notes/a.md"),
        ("empty segment", "/a//b.md"),
        ("dot-dot", "/a/../b.md"),
        ("dot segment", "/a/./b.md"),
        ("trailing slash", "/a/b/"),
        ("not NFC", "/e\u0301.md"),
        ("control character", "/a\x07b.md"),
        ("format character", "/a\u200bb.md"),
        ("line separator", "/a\u2028b.md"),
        ("paragraph separator", "/a\u2029b.md"),
        ("21 segments", "/" + "/".join(["s"] * 20) + "/x.md"),
        ("1,025 bytes", "/" + "a" * 1021 + ".md"),
        ("not markdown", "/notes/a.txt"),
        ("hidden segment", "/.hidden/a.md"),
        ("sdk marker", "/.anthropic-memory-store"),
        ("root only", "/"),
        ("not a string", 42),
    ],
)
def test_bad_paths_are_400_path_invalid(api, own, label, path):
    r = api.post(f"{BASE}/{own}/memories", {"path": path, "content": "x"}, format="json")
    assert r.status_code == 400, label
    body = r.json()
    assert body["type"] == "error"
    assert body["error"]["type"] == "invalid_request_error"
    if isinstance(path, str):
        assert error_code(r) == "path_invalid", label
    assert Memory.objects.count() == 0


def test_paths_at_the_limits_are_accepted(api, own):
    assert create(api, own, "/" + "/".join(["s"] * 19) + "/x.md").status_code == 200
    assert create(api, own, "/" + "b" * 1020 + ".md").status_code == 200  # 1,024 bytes exactly
    assert create(api, own, "/notes/with space: and * and \\.md").status_code == 200


def test_oversized_content_is_400(api, own):
    r = create(api, own, "/big.md", "a" * 102_401)
    assert r.status_code == 400
    assert error_code(r) == "content_invalid"
    assert create(api, own, "/fits.md", "a" * 102_400).status_code == 200


def test_lone_surrogate_and_nul_are_400(api, own):
    r = api.post(
        f"{BASE}/{own}/memories",
        data=b'{"path": "/s.md", "content": "bad \\ud800 text"}',
        content_type="application/json",
    )
    assert r.status_code == 400
    r = create(api, own, "/nul.md", "a\x00b")
    assert r.status_code == 400


def test_invalid_utf8_and_invalid_json_bodies_are_400(api, own):
    r = api.post(f"{BASE}/{own}/memories", data=b'{"path": "/a.md", "content": "\xff\xfe"}',
                 content_type="application/json")
    assert r.status_code == 400
    assert r.json()["error"]["type"] == "invalid_request_error"
    r = api.post(f"{BASE}/{own}/memories", data=b"{not json", content_type="application/json")
    assert r.status_code == 400


def test_missing_or_null_content_is_400(api, own):
    assert api.post(f"{BASE}/{own}/memories", {"path": "/a.md"}, format="json").status_code == 400
    assert api.post(f"{BASE}/{own}/memories", {"path": "/a.md", "content": None}, format="json").status_code == 400


def test_path_conflicts_are_409_without_retry(api, own):
    create(api, own, "/notes/a.md")
    create(api, own, "/x.md/y.md")
    for path, conflicting in [("/notes/a.md", "/notes/a.md"), ("/notes/a.md/x.md", "/notes/a.md"),
                              ("/x.md", "/x.md/y.md")]:
        r = create(api, own, path)
        assert r.status_code == 409, path
        assert r["x-should-retry"] == "false"
        err = r.json()["error"]
        assert err["type"] == "memory_path_conflict_error"
        assert err["conflicting_path"] == conflicting
        assert err["conflicting_memory_id"].startswith("mem_")


def test_path_rules_come_before_conflicts(api, own):
    create(api, own, "/notes/a.md")
    r = create(api, own, "/notes/a.md/../a.md")
    assert r.status_code == 400


def test_paths_are_case_sensitive(api, own):
    assert create(api, own, "/A.md").status_code == 200
    assert create(api, own, "/a.md").status_code == 200


def test_retrieve_views_and_unknown_ids(api, own):
    mid = create(api, own, "/a.md", "body").json()["id"]
    assert api.get(f"{BASE}/{own}/memories/{mid}").json()["content"] == "body"
    assert api.get(f"{BASE}/{own}/memories/{mid}?view=basic").json()["content"] is None
    assert api.get(f"{BASE}/{own}/memories/{mid}?view=weird").status_code == 400
    for bad in ("mem_doesnotexist", "memver_x", "garbage"):
        r = api.get(f"{BASE}/{own}/memories/{bad}")
        assert r.status_code == 404
        assert r.json()["error"]["type"] == "not_found_error"


def test_update_with_preconditions_and_retry_safety(api, own):
    created = create(api, own, "/a.md", "v1").json()
    mid, old_sha = created["id"], created["content_sha256"]
    url = f"{BASE}/{own}/memories/{mid}"
    body = {"content": "v2", "precondition": {"type": "content_sha256", "content_sha256": old_sha}}
    r1 = api.post(url, body, format="json")
    assert r1.status_code == 200
    assert r1.json()["content_sha256"] == sha("v2")
    assert r1.json()["memory_version_id"] != created["memory_version_id"]
    r2 = api.post(url, body, format="json")  # the same call again: already saved, so 200
    assert r2.status_code == 200
    assert r2.json()["memory_version_id"] == r1.json()["memory_version_id"]
    stale = {"content": "v3", "precondition": {"type": "content_sha256", "content_sha256": old_sha}}
    for _ in range(2):  # a resend keeps the text aside only once
        r3 = api.post(url, stale, format="json")
        assert r3.status_code == 409
        assert r3["x-should-retry"] == "false"
        assert r3.json()["error"]["type"] == "memory_precondition_failed_error"
        assert error_code(r3) == "stale_base"
    kept = SetAside.objects.get()
    assert kept.text == "v3"
    assert kept.base_sha256 == old_sha
    assert kept.lost_to_version_id == r1.json()["memory_version_id"]
    assert kept.base_version_id == created["memory_version_id"]
    assert Memory.objects.get(public_id=mid).content == "v2"
    assert Refusal.objects.filter(code="stale_base").count() == 1


def test_update_that_changes_nothing_writes_no_version(api, own):
    created = create(api, own, "/a.md", "same").json()
    url = f"{BASE}/{own}/memories/{created['id']}"
    r = api.post(url, {"content": "same"}, format="json")
    assert r.status_code == 200
    assert r.json()["memory_version_id"] == created["memory_version_id"]
    assert Memory.history.filter(public_id=created["id"]).count() == 1


def test_update_needs_content_or_path_and_checks_types(api, own):
    mid = create(api, own, "/a.md").json()["id"]
    url = f"{BASE}/{own}/memories/{mid}"
    assert api.post(url, {}, format="json").status_code == 400
    assert api.post(url, {"content": None, "path": None}, format="json").status_code == 400
    assert api.post(url, {"content": 5}, format="json").status_code == 400
    bad = {"content": "x", "precondition": {"type": "content_sha256", "content_sha256": "ABC"}}
    assert api.post(url, bad, format="json").status_code == 400


def test_rename_keeps_id_and_never_overwrites(api, own):
    a = create(api, own, "/notes/a.md", "a").json()
    b = create(api, own, "/notes/b.md", "b").json()
    url = f"{BASE}/{own}/memories/{a['id']}"
    r = api.post(url, {"path": "/notes/c.md"}, format="json")
    assert r.status_code == 200 and r.json()["id"] == a["id"] and r.json()["path"] == "/notes/c.md"
    r = api.post(url, {"path": "/notes/b.md"}, format="json")
    assert r.status_code == 409
    assert r.json()["error"]["type"] == "memory_path_conflict_error"
    # A rename says which memory holds the path and what to do, not the create's wording.
    message = r.json()["error"]["message"]
    assert f"taken by memory {b['id']}" in message and "Pick another path" in message
    assert "update it by id" not in message
    assert api.get(url).json()["path"] == "/notes/c.md"
    assert api.post(url, {"path": "/notes//b.md"}, format="json").status_code == 400
    assert api.patch(url, {"path": "/notes/d.md"}, format="json").status_code == 200


def test_delete_with_expected_sha(api, own):
    created = create(api, own, "/a.md", "x").json()
    url = f"{BASE}/{own}/memories/{created['id']}"
    r = api.delete(url + "?expected_content_sha256=" + "0" * 64)
    assert r.status_code == 409
    assert r.json()["error"]["type"] == "memory_precondition_failed_error"
    assert api.delete(url + "?expected_content_sha256=nothex").status_code == 400
    r = api.delete(url + "?expected_content_sha256=" + created["content_sha256"])
    assert r.status_code == 200
    assert r.json() == {"type": "memory_deleted", "id": created["id"]}
    assert api.get(url).status_code == 404
    assert api.post(url, {"content": "again"}, format="json").status_code == 404
    assert api.delete(url).status_code == 404
    listing = api.get(f"{BASE}/{own}/memories").json()
    assert listing["data"] == []


def test_listing_depth_prefix_and_pages(api, own):
    for p in ["/notes/a.md", "/notes/b.md", "/notes/deep/c.md", "/notes/deep/d.md", "/notes-old/x.md", "/z.md"]:
        create(api, own, p)
    seen, url = [], f"{BASE}/{own}/memories?path_prefix=/notes/&depth=1&limit=1"
    next_page = None
    while True:
        r = api.get(url + (f"&page={next_page}" if next_page else ""))
        assert r.status_code == 200
        body = r.json()
        assert len(body["data"]) <= 1
        seen += [(d["type"], d["path"]) for d in body["data"]]
        next_page = body["next_page"]
        if not next_page:
            break
    assert seen == [("memory", "/notes/a.md"), ("memory", "/notes/b.md"), ("memory_prefix", "/notes/deep/")]
    all_paths = [d["path"] for d in api.get(f"{BASE}/{own}/memories?limit=100").json()["data"]]
    assert all_paths == sorted(all_paths)
    assert len(all_paths) == 6


def test_listing_rejects_bad_parameters(api, own):
    for q in ["limit=0", "limit=101", "limit=x", "depth=-1", "depth=1.5", "path_prefix=/notes", "view=all",
              "page=garbage", "page=page_%%%"]:
        assert api.get(f"{BASE}/{own}/memories?{q}").status_code == 400, q


def test_full_view_pages_hold_at_most_20(api, own, settings):
    for i in range(25):
        create(api, own, f"/n/{i:02}.md")
    body = api.get(f"{BASE}/{own}/memories?view=full&limit=100").json()
    assert len(body["data"]) == 20 and body["next_page"]
    assert all(d["content"] is not None for d in body["data"])


def test_store_cap_refuses_the_next_create(api, own, settings):
    settings.MEMORY_STORE_MAX_MEMORIES = 2
    create(api, own, "/1.md")
    create(api, own, "/2.md")
    r = create(api, own, "/3.md")
    assert r.status_code == 400
    assert error_code(r) == "store_full"


def test_another_agents_store_is_404(api, world):
    api.as_token(world.outsider_token)
    sid = world.agent.store.public_id
    assert api.get(f"{BASE}/{sid}").status_code == 404
    assert api.get(f"{BASE}/{sid}/memories").status_code == 404
    assert create(api, sid, "/a.md").status_code == 404


def test_read_only_store_answers_403_with_code(api, world):
    api.as_token(world.agent_token)
    r = create(api, world.practice.public_id, "/a.md")
    assert r.status_code == 403
    assert r.json()["error"]["type"] == "permission_error"
    assert error_code(r) == "read_only_store"


def test_auth_errors(api, world, own):
    api.as_token(None)
    r = api.get(BASE)
    assert r.status_code == 401
    assert r.json()["error"]["type"] == "authentication_error"
    api.as_token("wrong")
    assert api.get(BASE).status_code == 401
    api.as_token(None)
    api.credentials(HTTP_X_API_KEY=world.agent_token)
    assert api.get(BASE).status_code == 200


def test_unknown_headers_and_empty_bodies_are_accepted(api, world):
    api.as_token(world.admin_token)
    sid = api.post(BASE, {"name": "S"}, format="json").json()["id"]
    r = api.post(f"{BASE}/{sid}/archive", data=b"", content_type="application/json",
                 HTTP_ANTHROPIC_BETA="agent-memory-2026-07-22", HTTP_ANTHROPIC_VERSION="2026-10-21",
                 HTTP_X_STAINLESS_RETRY_COUNT="0")
    assert r.status_code == 200


def test_trailing_slash_routes_do_not_exist(api, own):
    assert api.get(f"{BASE}/").status_code == 404


def test_openapi_schema_is_served(api):
    r = api.get("/api/schema/")
    assert r.status_code == 200


def test_token_use_is_recorded_coarsely(api, world):
    from stores.models import ApiToken

    api.as_token(world.agent_token)
    assert api.get(BASE).status_code == 200
    row = ApiToken.objects.get(agent=world.agent)
    first = row.last_used_at
    assert first is not None
    api.get(BASE)
    row.refresh_from_db()
    assert row.last_used_at == first  # not rewritten on every request


def test_a_secret_pasted_into_a_delete_reason_is_not_kept(world):
    from stores.services.memories import memory_delete
    from tests import factories as f

    key = "AKIA" + "Z7Q4" + "R2XW" + "M9KD" + "B3TY"
    memory = f.make_memory(world.project_store, "/conventions/keys.md", "Keys live in the vault.\n")
    deleted = memory_delete(
        writer=f.person_writer(world.admin), store=world.project_store, memory_id=memory.public_id,
        reason=f"held the deploy key aws_access_key_id = {key}",
    )
    assert key not in deleted.delete_reason
    assert "[REDACTED:" in deleted.delete_reason
    assert not Memory.history.filter(history_change_reason__contains=key).exists()
