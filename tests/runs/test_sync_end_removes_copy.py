"""`memory-sync end` removes the run's copy of the stores once the run has ended.

A person may delete or redact a memory after the run; a copy left on the agent's machine would
keep the text. The copy stays when --keep asks, while a lesson prompt is open (the lesson is written
in the folder), and whenever a file differs from the console's copy: nothing unsynced is lost.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runs.models import Run
from runs.sync_client.cli import main
from stores.models import Memory
from tests import factories as f

from .conftest import started
from .sync_helpers import checkout, sync

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

STORE_FOLDERS = ("project", "agent", "practice", "toolsets")


def state_of(folder: Path) -> dict:
    return json.loads((folder / ".memory-sync/state.json").read_text())


def copy_left(folder: Path) -> list[str]:
    """Every file of the stores' copy still in the folder (INSTRUCTIONS.md included; hidden files are not)."""
    files = [p for name in STORE_FOLDERS for p in (folder / name).rglob("*") if p.is_file()
             and not p.name.startswith(".")]
    return sorted(str(p.relative_to(folder)) for p in files + [folder / "INSTRUCTIONS.md"] if p.exists())


def test_end_removes_the_copy_after_the_last_push_and_says_what_went(api, world, live_server, tmp_path):
    f.make_memory(world.practice, "/patterns/incremental.md", "# Incremental models\nUse merge.\n")
    f.make_memory(world.project_store, "/conventions/naming.md", "# Naming\nsnake_case. ACME-1\n")
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    assert (folder / "practice/patterns/incremental.md").exists()  # a read-only store's copy, 0444 in 0555
    (folder / "project/issues/late.md").write_text("# Late loads\nThe Monday load is late. ACME-1\n")
    (folder / "project/issues/.scratch.md").write_text("my own scratch, never synced")
    outside = tmp_path / "elsewhere"
    outside.mkdir(mode=0o555)
    (folder / "project/data/linked").symlink_to(outside)  # never followed, never removed

    code, body = sync("end", str(folder), "--worked-past-error")
    assert code == 0, body
    assert body["lesson_prompt"] is None and body["kept"] is None
    assert Memory.objects.get(path="/issues/late.md").content.startswith("# Late loads")  # pushed first
    assert {"project/", "agent/", "practice/", "toolsets/dbt/", "INSTRUCTIONS.md"} <= {
        r.split(" ")[0] for r in body["removed"]}
    assert body["files_removed"] >= 3
    assert copy_left(folder) == []
    assert not (folder / "practice").exists() and not (folder / "toolsets").exists()
    # What the folder never syncs stays, and is named.
    assert (folder / "project/issues/.scratch.md").read_text() == "my own scratch, never synced"
    assert sorted(body["left"]) == ["project/data/linked", "project/issues/.scratch.md"]
    assert outside.is_dir() and (outside.stat().st_mode & 0o777) == 0o555
    state = state_of(folder)
    assert state["token"] == "" and state["files"] == {} and state["removed"] is True

    # `end` then `answer` still holds as a script; a pass says the copy is gone.
    code, body = sync("answer", str(folder), "--nothing-to-record", "Routine fix; nothing new.")
    assert code == 0 and body == {"lesson_answer": None, "no_lesson_prompt": True}
    for again in ("once", "end"):
        code, body = sync(again, str(folder))
        assert code == 1 and "its copy of the stores was removed" in body["error"]


def test_end_prints_what_it_removed(api, world, live_server, tmp_path, capsys):
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    (folder / "project/issues/late.md").write_text("# Late loads\nThe Monday load is late. ACME-1\n")
    assert main(["end", str(folder)]) == 0
    out = capsys.readouterr().out
    assert (f"removed the run's copy of the stores from {folder}: agent/, practice/, project/, toolsets/dbt/, "
            "INSTRUCTIONS.md (1 file of the stores).") in out
    assert "keeps only that the run ended (no token, no texts)" in out


def test_keep_keeps_the_copy_and_end_again_removes_it(api, world, live_server, tmp_path):
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    (folder / "project/issues/late.md").write_text("# Late loads\nThe Monday load is late. ACME-1\n")
    code, body = sync("end", str(folder), "--keep")
    assert code == 0 and body["kept"] == "--keep asked to keep it" and body["removed"] == []
    assert (folder / "project/issues/late.md").exists() and state_of(folder)["token"] == run["token"]
    code, body = sync("end", str(folder))
    assert code == 0 and body["kept"] is None and copy_left(folder) == []


def test_a_failed_last_push_keeps_the_folder_and_says_why(api, world, live_server, tmp_path):
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    note = folder / "project/solutions/fix.md"
    note.write_text("# Fix\nUse a merge key. ACME-1\n")
    state = state_of(folder)
    state["url"] = "http://127.0.0.1:9"  # nothing listens there
    (folder / ".memory-sync/state.json").write_text(json.dumps(state))
    code, body = sync("end", str(folder))
    assert code == 1 and "could not save every change" in body["error"] and "folder was kept" in body["error"]
    assert note.read_text() == "# Fix\nUse a merge key. ACME-1\n"
    assert Run.objects.get(public_id=run["id"]).ended_at is None  # not ended: the token still works
    state["url"] = live_server.url
    (folder / ".memory-sync/state.json").write_text(json.dumps(state))
    code, body = sync("end", str(folder))
    assert code == 0 and Memory.objects.filter(path="/solutions/fix.md").exists() and copy_left(folder) == []


def test_an_open_lesson_prompt_keeps_the_folder_and_answer_removes_it(api, world, live_server, tmp_path):
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    code, body = sync("end", str(folder), "--qa-failed")
    assert code == 0 and body["lesson_prompt"] and "asked for a lesson" in body["kept"]
    assert (folder / "INSTRUCTIONS.md").exists()
    code, body = sync("answer", str(folder), "--nothing-to-record", "The fix is in the practice store.")
    assert code == 0 and body["lesson_answer"]["nothing_to_record"] is True
    assert body["kept"] is None and copy_left(folder) == []


def test_a_lesson_saved_in_the_folder_then_end_again_removes_it_unless_a_file_is_unsaved(
    api, world, live_server, tmp_path
):
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    assert sync("end", str(folder), "--qa-failed")[0] == 0
    (folder / "project/solutions/a-lesson.md").write_text("# Merge keys\nThe orders merge needs a unique key. ACME-1\n")
    (folder / "project/solutions/b-second.md").write_text("# Second\nToo late: the token stops. ACME-1\n")
    code, body = sync("once", str(folder))
    assert code == 1 and body["pushed"] == 1  # the lesson landed, answered the prompt, and the token stopped
    code, body = sync("end", str(folder))
    assert code == 0 and "differ from the console's copy" in body["kept"] and "b-second.md" in body["kept"]
    assert (folder / "project/solutions/b-second.md").exists()  # never saved, so never removed
    (folder / "project/solutions/b-second.md").unlink()  # the agent gives it up
    code, body = sync("end", str(folder))
    assert code == 0 and body["kept"] is None and copy_left(folder) == []
