"""Acceptance of issue 4 from outside: the run API and `memory-sync` driven as an agent's harness.

Each test here pins a discrepancy found by driving the console on a live port (or an edge the
other run tests leave open): a console address that is not http, a body larger than Django
takes, `watch` ending with text unsaved, odd local files, a read-only folder opened up by the
agent, a folder removed wholesale, and answers lost on the way back.
"""

from __future__ import annotations

import io
import json
import os
import threading
from pathlib import Path

import pytest

from runs.sync_client.cli import main
from runs.sync_client.http import Api, ApiError
from runs.sync_client.sync import Folder
from stores.models import Memory
from stores.services.memories import memory_delete
from tests import factories as f

from .conftest import RUNS, STORES, error_code, start, started
from .sync_helpers import checkout, mode, once, refused, sync

DEAD_URL = "http://127.0.0.1:9"  # nothing listens there


def live(test):
    """A test against the console on a live port (the live server needs a transactional database)."""
    return pytest.mark.live(pytest.mark.django_db(transaction=True)(test))


def _point_at(folder: Path, url: str) -> None:
    state_file = folder / ".memory-sync/state.json"
    state = json.loads(state_file.read_text())
    state["url"] = url
    state_file.write_text(json.dumps(state))


# The run API.


def test_the_start_answer_and_its_stores_carry_exactly_the_named_fields(api, world):
    body = started(api, world.agent_token)
    assert {"id", "token", "ticket_key", "project_key", "stores", "instructions"} <= set(body)
    assert body["id"].startswith("run_") and body["token"].startswith("mcr_")
    assert (body["ticket_key"], body["project_key"]) == ("ACME-1", "ACME")
    for store in body["stores"]:
        assert set(store) == {"memory_store_id", "kind", "name", "access", "folder"}
    assert {s["folder"]: s["access"] for s in body["stores"]} == {
        "project": "read_write", "agent": "read_write", "practice": "read_only", "toolsets/dbt": "read_only"}


def test_the_run_shows_its_signals_as_end_takes_them(api, world):
    run = started(api, world.agent_token)
    signals = {"qa_failed": True, "needed_ruling": False, "worked_past_error": True, "attempts": 3}
    ended = api.as_token(world.agent_token).post(f"{RUNS}/{run['id']}/end", signals, format="json").json()
    body = api.as_token(world.agent_token).get(f"{RUNS}/{run['id']}").json()
    for shown in (ended, body):
        assert shown["signals"] == signals and {k: shown[k] for k in signals} == signals
        assert shown["lesson_prompt"] and shown["lesson_answer"] is None


def test_client_busy_names_the_active_run(api, world):
    world.project.client.one_client_at_a_time = True
    world.project.client.save()
    f.make_pod(agents=[world.agent], projects=[world.other_project], name="pod-both")
    first = started(api, world.agent_token)
    response = start(api, world.agent_token, "OTHR-1")
    assert response.status_code == 409 and error_code(response) == "client_busy"
    error = response.json()["error"]
    assert error["active_run_id"] == first["id"] and first["id"] in error["message"]
    api.as_token(world.agent_token).post(f"{RUNS}/{first['id']}/end", {}, format="json")
    assert start(api, world.agent_token, "OTHR-1").status_code == 200


def test_a_create_at_a_path_a_person_deleted_after_the_run_started_is_a_400(api, world):
    memory = f.make_memory(world.project_store, "/solutions/fix.md", "# Fix\nA merge key. ACME-1\n")
    run = started(api, world.agent_token)
    memory_delete(writer=f.person_writer(world.admin), store=world.project_store, memory_id=memory.public_id)
    response = api.as_token(run["token"]).post(
        f"{STORES}/{world.project_store.public_id}/memories",
        {"path": "/solutions/fix.md", "content": "# Fix\nStill a merge key. ACME-1\n"}, format="json")
    assert response.status_code == 400 and error_code(response) == "deleted_by_person"
    later = started(api, world.agent_token, "ACME-2")
    assert "/solutions/fix.md" not in later["instructions"]


def test_a_body_larger_than_django_takes_is_refused_in_the_envelope(api, world, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 150_000
    run = started(api, world.agent_token)
    response = api.as_token(run["token"]).post(
        f"{STORES}/{world.project_store.public_id}/memories",
        {"path": "/issues/huge.md", "content": "# Huge\n" + "x" * 200_000}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["type"] == "error" and body["error"]["type"] == "invalid_request_error"
    assert error_code(response) == "content_invalid" and "102,400 bytes" in body["error"]["message"]
    assert not Memory.objects.filter(path="/issues/huge.md").exists()


def test_a_run_record_may_pass_djangos_body_limit_up_to_its_own(api, world, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100_000
    settings.RUN_RECORD_MAX_BYTES = 1_000_000
    run = started(api, world.agent_token)
    key = "AKIA" + "Q3EGUJXN" + "5B7VTR2M"
    transcript = "step: dbt build passed\n" * 12_000 + f"export AWS_ACCESS_KEY_ID={key}\n"
    response = api.as_token(run["token"]).post(f"{RUNS}/{run['id']}/record", {"transcript": transcript},
                                                format="json")
    assert response.status_code == 200, response.content
    kept = response.json()["transcript"]
    assert len(kept) > 250_000 and key not in kept and kept.endswith("[REDACTED:AWS Access Key]\n")
    too_big = api.as_token(run["token"]).post(f"{RUNS}/{run['id']}/record", {"transcript": "x" * 1_100_000},
                                              format="json")
    assert too_big.status_code == 400 and error_code(too_big) == "record_too_large"
    assert api.as_token(world.admin_token).get(f"{RUNS}/{run['id']}/record").json()["data"][0]["transcript"] == kept


# `memory-sync`: usage and addresses.


@pytest.mark.parametrize("url", ["notaurl", "ftp://console.example", "http://"])
def test_checkout_refuses_an_address_that_is_not_http_as_usage(url, tmp_path, capsys):
    folder = tmp_path / "run"
    code = main(["checkout", str(folder), "--url", url, "--token", "mcr_x", "--run", "run_x"])
    assert code == 2 and not folder.exists()
    assert "--url" in capsys.readouterr().err


def test_a_bad_stored_address_is_no_answer_not_a_crash():
    with pytest.raises(ApiError) as caught:
        Api("notaurl", "mcr_x").get("/v1/runs/run_x/changes")
    assert caught.value.status is None and caught.value.transient


# `memory-sync`: passes.


@live
def test_watch_exits_1_when_its_last_pass_could_not_save(api, world, live_server, tmp_path):
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    note = folder / "project/solutions/fix.md"
    note.write_text("# Fix\nUse a merge key. ACME-1\n")
    _point_at(folder, DEAD_URL)
    stop = threading.Event()
    stop.set()  # stopped before it starts: exactly one pass, the last
    out = io.StringIO()
    code = main(["watch", str(folder), "--json"], stop_event=stop, stdout=out, stderr=io.StringIO())
    assert code == 1 and json.loads(out.getvalue().splitlines()[-1])["complete"] is False
    assert note.read_text() == "# Fix\nUse a merge key. ACME-1\n"
    _point_at(folder, live_server.url)
    stop = threading.Event()
    stop.set()
    assert main(["watch", str(folder)], stop_event=stop, stdout=io.StringIO()) == 0
    assert Memory.objects.get(path="/solutions/fix.md").content == note.read_text()


@live
def test_a_file_larger_than_django_takes_is_refused_with_a_reason(api, world, live_server, tmp_path, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 150_000
    f.make_memory(world.project_store, "/issues/known.md", "# Known\nThe Monday load is late. ACME-1\n")
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    huge = "# Huge\n" + ("A long line about the Monday load. ACME-1\n" * 5000)
    (folder / "project/issues/huge.md").write_text(huge)
    (folder / "project/issues/known.md").write_text(huge)
    result = once(folder)
    assert sorted((r["path"], r["reason_code"]) for r in result["refused"]) == [
        ("project/issues/huge.md", "content_invalid"), ("project/issues/known.md", "content_invalid")]
    assert not (folder / "project/issues/huge.md").exists()
    assert (folder / "project/issues/known.md").read_text() == "# Known\nThe Monday load is late. ACME-1\n"
    assert "102,400 bytes" in refused(folder, "project/issues/huge.md")[1]


@live
def test_odd_local_files(api, world, live_server, tmp_path):
    f.make_memory(world.project_store, "/data/orders.md", "# Orders\nRefunds are negative rows. ACME-1\n")
    f.make_memory(world.project_store, "/data/latin.md", "# Latin\nSaved text. ACME-1\n")
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    data = folder / "project/data"
    (data / "bytes.md").write_bytes(b"caf\xe9 au lait\n")  # not UTF-8, new
    (data / "latin.md").write_bytes(b"caf\xe9\n")  # not UTF-8, over a saved copy
    (data / "notes.txt").write_text("# Notes\nA text file. ACME-1\n")
    (data / "README").write_text("# Readme\nNo extension. ACME-1\n")
    (data / ".draft.md").write_text("# Draft\nHidden. ACME-1\n")
    (data / "link.md").symlink_to("/etc/hostname")
    (data / "empty.md").write_text("")
    nested = folder / "project/solutions/dbt/incremental"
    nested.mkdir(parents=True)
    (nested / "merge.md").write_text("# Merge\nIncremental merges need a unique key. ACME-1\n")
    (data / "refused-by-name.md.refused").write_text("not a memory\n")
    result = once(folder)
    assert sorted((r["path"], r["reason_code"]) for r in result["refused"]) == [
        ("project/data/README", "path_invalid"),
        ("project/data/bytes.md", "content_invalid"),
        ("project/data/latin.md", "content_invalid"),
        ("project/data/notes.txt", "path_invalid"),
    ]
    assert "taken away" in refused(folder, "project/data/bytes.md")[1]
    assert "put back as saved" in refused(folder, "project/data/latin.md")[1]
    assert not (data / "bytes.md").exists() and (data / "latin.md").read_text() == "# Latin\nSaved text. ACME-1\n"
    assert (data / ".draft.md").exists() and (data / "link.md").is_symlink()  # left alone, never uploaded
    live_paths = set(Memory.objects.filter(store=world.project_store, deleted_at__isnull=True)
                     .values_list("path", flat=True))
    assert live_paths == {"/data/orders.md", "/data/latin.md", "/data/empty.md", "/solutions/dbt/incremental/merge.md"}
    assert Memory.objects.get(path="/data/empty.md").content == ""

    # A rename (one file gone, the same bytes at a new path) moves the memory, keeping its id.
    orders = Memory.objects.get(path="/data/orders.md")
    (data / "orders.md").rename(data / "refunds.md")
    assert once(folder)["refused"] == []
    orders.refresh_from_db()
    assert orders.path == "/data/refunds.md" and orders.deleted_at is None


@live
def test_a_read_only_folder_opened_up_by_the_agent_is_sealed_again(api, world, live_server, tmp_path):
    f.make_memory(world.practice, "/patterns/incremental.md", "# Incremental models\nUse merge.\n")
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    patterns = folder / "practice/patterns"
    os.chmod(folder / "practice", 0o755)
    os.chmod(patterns, 0o755)
    os.chmod(patterns / "incremental.md", 0o644)
    (patterns / "incremental.md").write_text("# Incremental models\nUse append.\n")
    (patterns / "new.md").write_text("# New\n")
    result = once(folder)
    assert {r["reason_code"] for r in result["refused"]} == {"read_only_store"}
    assert mode(patterns / "incremental.md") == 0o444 and not (patterns / "new.md").exists()
    assert mode(patterns) == 0o555 and mode(folder / "practice") == 0o555


@live
def test_a_folder_removed_wholesale_comes_back_with_its_fixed_folders(api, world, live_server, tmp_path):
    f.make_memory(world.project_store, "/data/orders.md", "# Orders\nRefunds are negative rows. ACME-1\n")
    f.make_memory(world.project_store, "/issues/late.md", "# Late\nThe Monday load is late. ACME-1\n")
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    import shutil

    shutil.rmtree(folder / "project")
    shutil.rmtree(folder / "agent")
    result = once(folder)
    assert {r["reason_code"] for r in result["refused"]} == {"deleted_together"}
    for name in ("conventions", "data", "rationale", "solutions", "issues", "agents/ada"):
        assert (folder / "project" / name).is_dir(), name
    assert (folder / "agent").is_dir()
    assert (folder / "project/data/orders.md").exists() and (folder / "project/issues/late.md").exists()
    assert Memory.objects.filter(store=world.project_store, deleted_at__isnull=True).count() == 2


class _LosesAnswers(Api):
    """The console's real API, but the answers to writes are lost (the request did reach it) or,
    with ``refuse``, a 503 or 429 comes back before the console sees anything."""

    def __init__(self, url: str, token: str, *, lose: bool = False, refuse: int | None = None) -> None:
        super().__init__(url, token)
        self.lose = lose
        self.refuse = refuse

    def request(self, method, path, *, query=None, body=None):
        is_write = method in ("POST", "DELETE") and "/memories" in path
        if is_write and self.refuse:
            raise ApiError(self.refuse, "try again later")
        answer = super().request(method, path, query=query, body=body)
        if is_write and self.lose:
            raise ApiError(502, "the answer was lost on the way back")
        return answer


@pytest.mark.parametrize("status", [503, 429])
@live
def test_a_server_error_or_rate_limit_keeps_the_change_for_the_next_pass(
    api, world, live_server, tmp_path, status
):
    f.make_memory(world.project_store, "/data/orders.md", "# Orders\nRefunds are negative rows. ACME-1\n")
    f.make_memory(world.project_store, "/data/gone.md", "# Gone\nAn old note. ACME-1\n")
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    edited = "# Orders\nRefunds are negative rows; credits too. ACME-1\n"
    (folder / "project/data/orders.md").write_text(edited)
    (folder / "project/issues/new.md").write_text("# New\nA new lesson. ACME-1\n")
    (folder / "project/data/gone.md").unlink()
    flaky = Folder.open(folder, api=_LosesAnswers(live_server.url, run["token"], refuse=status))
    result = flaky.sync_pass()
    assert not result.complete and result.refused == [] and len(result.failed) == 3
    assert (folder / "project/data/orders.md").read_text() == edited
    assert (folder / "project/issues/new.md").exists() and not (folder / "project/data/gone.md").exists()
    assert not list(folder.rglob("*.refused"))
    result = once(folder)
    assert (result["pushed"], result["deleted"], result["refused"]) == (2, 1, [])
    assert Memory.objects.get(path="/data/orders.md").content == edited


@live
def test_a_write_whose_answer_was_lost_is_not_a_conflict_next_pass(api, world, live_server, tmp_path):
    f.make_memory(world.project_store, "/data/orders.md", "# Orders\nRefunds are negative rows. ACME-1\n")
    f.make_memory(world.project_store, "/data/gone.md", "# Gone\nAn old note. ACME-1\n")
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    edited = "# Orders\nRefunds are negative rows; credits too. ACME-1\n"
    (folder / "project/data/orders.md").write_text(edited)
    (folder / "project/issues/new.md").write_text("# New\nA new lesson. ACME-1\n")
    (folder / "project/data/gone.md").unlink()
    lossy = Folder.open(folder, api=_LosesAnswers(live_server.url, run["token"], lose=True))
    assert not lossy.sync_pass().complete
    result = once(folder)
    assert result["refused"] == [] and not list(folder.rglob("*.refused"))
    assert (folder / "project/data/orders.md").read_text() == edited
    assert Memory.objects.get(path="/data/orders.md").content == edited
    assert Memory.objects.get(path="/issues/new.md").content == "# New\nA new lesson. ACME-1\n"
    assert Memory.objects.get(path="/data/gone.md").deleted_at is not None
    from stores.models import SetAside

    assert not SetAside.objects.exists()  # nothing of this run's own was taken for a lost conflict


@live
def test_end_then_answer_with_the_cli_and_the_token_stops(api, world, live_server, tmp_path):
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    code, body = sync("end", str(folder), "--needed-ruling")
    assert code == 0 and "needed a ruling" in body["lesson_prompt"]
    code, body = sync("once", str(folder))  # the prompt is open: the token still works
    assert code == 0 and body["refused"] == []
    code, body = sync("answer", str(folder), "--nothing-to-record", "The ruling is a standing decision now.")
    assert code == 0 and set(body["lesson_answer"]) == {"nothing_to_record", "why", "memory_version_id", "at"}
    assert api.as_token(run["token"]).get(f"{RUNS}/{run['id']}").status_code == 401
    again = api.as_token(world.agent_token).post(
        f"{RUNS}/{run['id']}/lesson", {"nothing_to_record": True, "why": "again"}, format="json")
    assert again.status_code == 409 and error_code(again) == "already_answered"


@live
def test_a_lesson_saved_by_a_pass_shows_in_its_output_when_the_token_then_stops(api, world, live_server, tmp_path):
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    code, body = sync("end", str(folder), "--qa-failed")
    assert code == 0 and body["lesson_prompt"]
    (folder / "project/solutions/a-lesson.md").write_text("# Merge keys\nThe orders merge needs a unique key. ACME-1\n")
    (folder / "project/solutions/b-second.md").write_text("# Second\nToo late: the token stops. ACME-1\n")
    code, body = sync("once", str(folder))
    assert code == 1 and "no longer accepts the run token" in body["error"]
    assert body["pushed"] == 1 and body["complete"] is False  # the lesson landed and answered the prompt
    answer = api.as_token(world.agent_token).get(f"{RUNS}/{run['id']}").json()["lesson_answer"]
    lesson = Memory.objects.get(path="/solutions/a-lesson.md")
    assert answer["nothing_to_record"] is False and answer["memory_version_id"] == lesson.head_version_id
    assert (folder / "project/solutions/b-second.md").exists()  # never saved, never lost locally


def test_two_toolsets_with_one_folder_name_get_two_folders(api, world):
    for name in ("dbt core", "dbt-core"):
        world.project.toolsets.add(f.make_toolset(name))
    folders = [s["folder"] for s in started(api, world.agent_token)["stores"] if s["kind"] == "toolset"]
    assert sorted(folders) == ["toolsets/dbt", "toolsets/dbt-core", "toolsets/dbt-core-2"]


def test_a_path_with_a_lone_surrogate_is_a_400_not_a_500(api, world):
    run = started(api, world.agent_token)
    body = json.dumps({"path": "/data/caf\udce9.md", "content": "# Cafe\nA note. ACME-1\n"})  # ASCII escapes
    response = api.as_token(run["token"]).post(
        f"{STORES}/{world.project_store.public_id}/memories", body, content_type="application/json")
    assert response.status_code == 400 and error_code(response) == "path_invalid"
    listed = api.as_token(world.admin_token).get(f"{STORES}/{world.project_store.public_id}/refusals").json()
    assert [(r["path"], r["reason_code"]) for r in listed["data"]] == [("/data/caf\\udce9.md", "path_invalid")]


@live
def test_a_file_name_that_is_not_utf8_is_refused_and_reported(api, world, live_server, tmp_path):
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    data = os.fsencode(folder / "project/data")
    with open(os.path.join(data, b"caf\xe9.md"), "wb") as fh:
        fh.write(b"# Cafe\nA note. ACME-1\n")
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", errors="strict", write_through=True)
    code = main(["once", str(folder), "--json"], stdout=out, stderr=io.StringIO())
    body = json.loads(raw.getvalue().decode("utf-8"))
    rel = os.fsdecode(b"project/data/caf\xe9.md")
    assert code == 0 and body["refused"] == [{"path": rel, "reason_code": "path_invalid"}]
    assert not os.path.exists(os.path.join(data, b"caf\xe9.md"))
    assert os.path.exists(os.path.join(data, b"caf\xe9.md.refused"))
    assert not Memory.objects.filter(path__startswith="/data/caf").exists()
