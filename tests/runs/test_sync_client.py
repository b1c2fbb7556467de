"""`memory-sync` on its own: no Django, checkout modes, read-only stores, transient failures, exit
codes, JSON output, the end of a run, and `watch` stopping on a signal."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from runs.models import Run
from runs.sync_client.cli import DEFAULT_INTERVAL, build_parser, main
from stores.models import Memory
from tests import factories as f

from .conftest import started
from .sync_helpers import checkout, mode, once, refused, sync

ROOT = Path(__file__).resolve().parents[2]
MEMORY_SYNC = Path(sys.executable).parent / "memory-sync"



def live(test):
    """A test against the console on a live port (the live server needs a transactional database)."""
    return pytest.mark.live(pytest.mark.django_db(transaction=True)(test))


def test_the_client_imports_no_django():
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'django' or name.startswith('django.'):\n"
        "            raise ImportError('Django is not available here')\n"
        "sys.meta_path.insert(0, Block())\n"
        "import runs.sync_client, runs.sync_client.cli, runs.sync_client.sync, runs.sync_client.http\n"
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules)\n"
        "print('no django')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "no django"


# What the client may import beyond the standard library: its HTTP client and what that brings.
CLIENT_DEPENDENCIES = {"requests", "urllib3", "idna", "certifi", "charset_normalizer", "chardet", "brotli",
                       "brotlicffi", "socks", "zstandard", "simplejson", "cryptography", "OpenSSL"}


def test_every_client_module_needs_only_the_standard_library_and_requests():
    """Each module of the client imports with every other third-party package (Django above all)
    blocked, and `requests`, the one it declares, is among the project's dependencies."""
    code = (
        "import importlib, pkgutil, sys\n"
        f"allowed = {sorted(CLIENT_DEPENDENCIES)!r}\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        top = name.partition('.')[0]\n"
        "        if top not in sys.stdlib_module_names and top not in allowed and top != 'runs':\n"
        "            raise ImportError(f'{name} is not available here')\n"
        "sys.meta_path.insert(0, Block())\n"
        "import runs.sync_client as pkg\n"
        "names = sorted(m.name for m in pkgutil.iter_modules(pkg.__path__))\n"
        "for name in names:\n"
        "    importlib.import_module('runs.sync_client.' + name)\n"
        "assert 'requests' in sys.modules\n"
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules)\n"
        "print(' '.join(names))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert {"state", "files", "scan", "push", "pull", "undo", "lifecycle", "http", "cli"} <= set(
        result.stdout.split())
    import tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert any(d.split(">")[0].split("=")[0].strip() == "requests" for d in declared)


def test_the_command_is_installed_and_the_default_interval_is_two_seconds():
    assert MEMORY_SYNC.exists()
    assert DEFAULT_INTERVAL == 2.0
    assert build_parser().parse_args(["watch", "d"]).interval == 2.0


@pytest.mark.parametrize(
    "argv",
    [[], ["nonsense"], ["once"], ["watch", "d", "--interval", "0"], ["end", "d", "--attempts", "0"],
     ["answer", "d"], ["checkout", "d", "--url", "http://x"]],
)
def test_usage_errors_exit_2(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("MEMORY_SYNC_TOKEN", raising=False)
    assert main(argv) == 2


def test_a_folder_that_was_never_checked_out_is_a_usage_error(tmp_path):
    assert main(["once", str(tmp_path / "nowhere")]) == 2


@live
def test_checkout_lays_out_every_store_with_its_modes(api, world, live_server, tmp_path):
    f.make_memory(world.project_store, "/conventions/naming.md", "# Naming\n")
    f.make_memory(world.practice, "/patterns/incremental.md", "# Incremental models\n")
    f.make_memory(world.toolset.store, "/dbt/tests.md", "# dbt tests\n")
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    code, _ = sync("checkout", str(tmp_path / "full"), "--url", live_server.url, "--token", run["token"],
                   "--run", run["id"])
    assert code == 2  # DIR must not exist or be empty

    body = checkout(folder, live_server.url, run)
    assert body["files"] == 3
    assert {s["folder"]: s["files"] for s in body["stores"]} == {
        "project": 1, "agent": 0, "practice": 1, "toolsets/dbt": 1}
    assert mode(folder) == 0o700
    for name in ("conventions", "data", "rationale", "solutions", "issues", "agents/ada"):
        assert (folder / "project" / name).is_dir()
    assert mode(folder / "project/conventions/naming.md") == 0o644
    assert mode(folder / "practice/patterns/incremental.md") == 0o444
    assert mode(folder / "practice/patterns") == 0o555 and mode(folder / "practice") == 0o555
    assert mode(folder / "toolsets/dbt/dbt/tests.md") == 0o444
    assert (folder / "INSTRUCTIONS.md").read_text().startswith(f"# Memory for run {run['id']}")
    state_file = folder / ".memory-sync" / "state.json"
    assert mode(state_file) == 0o600 and mode(folder / ".memory-sync") == 0o700
    state = json.loads(state_file.read_text())
    assert (state["url"], state["run_id"], state["token"]) == (live_server.url, run["id"], run["token"])
    # The state and the instructions are never uploaded.
    (folder / "project/conventions/.draft.md").write_text("hidden")
    assert once(folder)["pushed"] == 0
    assert not Memory.objects.filter(path__contains="memory-sync").exists()
    assert not Memory.objects.filter(path__contains="INSTRUCTIONS").exists()


@live
def test_read_only_stores_are_put_back(api, world, live_server, tmp_path):
    f.make_memory(world.practice, "/patterns/incremental.md", "# Incremental models\nUse merge.\n")
    f.make_memory(world.practice, "/patterns/tests.md", "# Tests\nTest unique keys.\n")
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    changed = folder / "practice/patterns/incremental.md"
    changed.write_text("# Incremental models\nUse append.\n")  # root writes past the mode bits
    os.chmod(changed, 0o644)
    (folder / "practice/patterns/mine.md").write_text("# Mine\n")
    result = once(folder)
    assert sorted((r["path"], r["reason_code"]) for r in result["refused"]) == [
        ("practice/patterns/incremental.md", "read_only_store"),
        ("practice/patterns/mine.md", "read_only_store"),
    ]
    assert changed.read_text() == "# Incremental models\nUse merge.\n" and mode(changed) == 0o444
    assert not (folder / "practice/patterns/mine.md").exists()
    assert refused(folder, "practice/patterns/mine.md")[0] == "read_only_store"
    assert mode(folder / "practice/patterns") == 0o555
    (folder / "practice/patterns/tests.md").unlink()
    assert once(folder)["refused"] == [{"path": "practice/patterns/tests.md", "reason_code": "read_only_store"}]
    assert (folder / "practice/patterns/tests.md").read_text() == "# Tests\nTest unique keys.\n"
    assert Memory.objects.filter(store=world.practice, deleted_at__isnull=True).count() == 2


@live
def test_no_answer_keeps_the_change_for_the_next_pass(api, world, live_server, tmp_path):
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    note = folder / "project/solutions/fix.md"
    note.write_text("# Fix\nUse a merge key. ACME-1\n")
    state_file = folder / ".memory-sync/state.json"
    state = json.loads(state_file.read_text())
    state["url"] = "http://127.0.0.1:9"  # nothing listens there
    state_file.write_text(json.dumps(state))
    code, body = sync("once", str(folder))
    assert code == 1 and body["complete"] is False and body["failed"]
    assert note.read_text() == "# Fix\nUse a merge key. ACME-1\n" and not Path(str(note) + ".refused").exists()
    state["url"] = live_server.url
    state_file.write_text(json.dumps(state))
    assert once(folder)["pushed"] == 1
    assert Memory.objects.get(path="/solutions/fix.md").content == note.read_text()


@live
def test_jira_unavailable_keeps_the_change_for_the_next_pass(
    api, world, live_server, tmp_path, jira_standin, settings
):
    settings.JIRA_CACHE_SECONDS = 0
    settings.JIRA_TIMEOUT_SECONDS = 0.5
    jira_standin.set_issue("ACME-7", "ACME", "acc-bob")
    run = started(api, world.outsider_token, "ACME-7")  # bob: no pod, the ticket assigned in Jira
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    jira_standin.down()
    note = folder / "project/solutions/fix.md"
    note.write_text("# Fix\nUse a merge key. ACME-7\n")
    code, body = sync("once", str(folder))
    assert code == 1 and "jira_unavailable" in body["failed"][0]["error"] and body["refused"] == []
    assert note.exists()
    jira_standin.up()
    assert once(folder)["pushed"] == 1
    assert Memory.objects.get(path="/solutions/fix.md").history.get().actor["session_id"] == run["id"]


@live
def test_end_prints_the_prompt_and_answer_answers_it_once(api, world, live_server, tmp_path):
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    code, body = sync("end", str(folder), "--qa-failed", "--attempts", "2")
    assert code == 0 and "hit a QA failure and took 2 attempts" in body["lesson_prompt"]
    code, body = sync("answer", str(folder), "--nothing-to-record", "The fix is already in the practice store.")
    assert code == 0 and body["lesson_answer"]["nothing_to_record"] is True
    code, body = sync("answer", str(folder), "--nothing-to-record", "again")
    assert code == 1 and "error" in body
    stored = Run.objects.get(public_id=run["id"])
    assert stored.lesson_why == "The fix is already in the practice store." and stored.attempts == 2


@live
def test_end_pushes_last_changes_and_a_routine_run_gets_no_prompt(api, world, live_server, tmp_path):
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    (folder / "project/issues/late.md").write_text("# Late loads\nThe Monday load is late. ACME-1\n")
    code, body = sync("end", str(folder), "--worked-past-error")
    assert code == 0 and body["lesson_prompt"] is None  # it saved a note, so it is not asked
    assert Memory.objects.filter(path="/issues/late.md").exists()
    # The README's `end` then `answer` holds as a script: no prompt, nothing to answer, exit 0.
    code, body = sync("answer", str(folder), "--nothing-to-record", "Routine fix; nothing new.")
    assert code == 0 and body == {"lesson_answer": None, "no_lesson_prompt": True}
    assert Run.objects.get(public_id=run["id"]).lesson_why == ""
    code, body = sync("once", str(folder))
    assert code == 1 and "its copy of the stores was removed" in body["error"]


@live
def test_watch_ends_after_a_last_pass_on_sigterm(api, world, live_server, tmp_path):
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    proc = subprocess.Popen([str(MEMORY_SYNC), "watch", str(folder)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().startswith("watching ")
        time.sleep(0.3)
        (folder / "project/solutions/late.md").write_text("# Written just before the stop\n")
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "pushed 1" in out
    assert Memory.objects.filter(path="/solutions/late.md", deleted_at__isnull=True).exists()


@pytest.mark.postgres
@live
def test_a_change_in_the_console_reaches_a_watched_folder_within_seconds(api, world, live_server, tmp_path):
    memory = f.make_memory(world.project_store, "/data/orders.md", "v1\n")
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    stop = threading.Event()
    codes: list[int] = []
    watcher = threading.Thread(target=lambda: codes.append(main(["watch", str(folder), "--json"], stop_event=stop,
                                                                stdout=io.StringIO())))
    watcher.start()
    try:
        from stores.services.memories import memory_update

        memory_update(writer=f.person_writer(world.admin), store=world.project_store, memory_id=memory.public_id,
                      content="v2\n")
        target = folder / "project/data/orders.md"
        for _ in range(150):  # the watcher's pass lands the change; poll a bounded number of times
            if target.read_text() == "v2\n":
                break
            time.sleep(0.02)
        assert target.read_text() == "v2\n"
    finally:
        stop.set()
        watcher.join(timeout=30)
    assert codes == [0]


@live
def test_checkout_refuses_the_agents_own_token(api, world, live_server, tmp_path):
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    code, body = sync("checkout", str(folder), "--url", live_server.url, "--token", world.agent_token,
                      "--run", run["id"])
    assert code == 2
    assert "the agent's own token (mca_...)" in body["stderr"] and "run token (mcr_...)" in body["stderr"]
    assert not folder.exists()


@live
def test_ignored_files_are_said_once_with_why(api, world, live_server, tmp_path):
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    (folder / "project/issues/.hidden.md").write_text("# Hidden\nNot a memory.\n")
    outside = tmp_path / "outside.md"
    outside.write_text("# Outside\nNot in the folder.\n")
    (folder / "project/issues/linked.md").symlink_to(outside)
    first = once(folder)
    assert first["ignored"] == [
        {"path": "project/issues/.hidden.md", "why": "hidden (its name starts with a dot)"},
        {"path": "project/issues/linked.md", "why": "a symbolic link (only regular files are memories)"},
    ]
    assert first["pushed"] == 0
    assert once(folder)["ignored"] == []  # said once, not every pass
    out, err = io.StringIO(), io.StringIO()
    (folder / "project/issues/.other.md").write_text("x")
    assert main(["once", str(folder)], stdout=out, stderr=err) == 0
    assert "ignored project/issues/.other.md: hidden (its name starts with a dot); never synced" in out.getvalue()
    assert not Memory.objects.filter(path__contains="hidden").exists()
    assert not Memory.objects.filter(path__contains="linked").exists()
