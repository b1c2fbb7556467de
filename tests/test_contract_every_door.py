"""One bad change through every door gets the same code, one Refusal per door, and an unchanged store.

Doors: the agent API, a run folder's sync (the `memory-sync` client), a set-aside text used in
the console, and `import_store`.
"""

from __future__ import annotations

import io
import json
import random
import string

import pytest
from django.core.management import call_command

from runs.sync_client.cli import main as memory_sync
from stores.models import Memory, Refusal, SetAside
from tests import factories as f

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


def aws_key() -> str:
    """An AWS-shaped access key id, made at run time so the repository holds none."""
    rng = random.Random(11)
    return "AKIA" + "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(16))


def bad_note() -> str:
    return f"# Warehouse loads\n\nThe loader signs in with aws_access_key_id = {aws_key()} on the ETL box.\n"


def store_state(store):
    return sorted(Memory.objects.filter(store=store).values_list("public_id", "path", "content", "deleted_at"))


def test_the_same_secret_is_refused_alike_at_every_door(api, world, live_server, jira_standin, tmp_path, client):
    store = world.project_store
    existing = f.make_memory(store, "/conventions/loads.md", "# Loads\n\nLoads run nightly at 02:00 UTC.\n")
    before = store_state(store)
    path = "/conventions/warehouse.md"

    # 1. The agent API.
    r = api.as_token(world.agent_token).post(
        f"/api/v1/memory_stores/{store.public_id}/memories", {"path": path, "content": bad_note()}, format="json"
    )
    assert r.status_code == 400
    assert r.json()["error"]["details"]["error_code"] == "secret_detected"
    assert aws_key() not in r.json()["error"]["message"]

    # 2. A run folder's sync.
    jira_standin.set_issue("ACME-1", "ACME", "acc-ada")
    run = api.post("/api/v1/runs", {"ticket_key": "ACME-1", "host": "test-host"}, format="json")
    assert run.status_code == 200, run.json()
    run = run.json()
    folder = tmp_path / "run"
    assert memory_sync(["checkout", str(folder), "--url", live_server.url, "--token", run["token"],
                        "--run", run["id"]]) == 0
    note = folder / "project" / path.lstrip("/")
    note.write_text(bad_note(), encoding="utf-8")
    out = io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out):
        assert memory_sync(["once", str(folder), "--json"]) == 0
    result = json.loads(out.getvalue().strip().splitlines()[-1])
    assert {"path": "project" + path, "reason_code": "secret_detected"} in [
        {"path": x["path"], "reason_code": x["reason_code"]} for x in result["refused"]
    ]
    assert not note.exists()
    refused_file = note.with_name(note.name + ".refused")
    assert refused_file.read_text(encoding="utf-8").splitlines()[0] == "secret_detected"

    # 3. A set-aside text used in the console.
    kept = SetAside.objects.create(
        store=store, memory=existing, path=existing.path, text=bad_note(), text_sha256="0" * 64,
        base_sha256=existing.content_sha256, writer_key="agent:legacy", created_by={"type": "api_actor"},
    )
    client.force_login(world.admin)
    client.post(f"/console/set-asides/{kept.public_id}/use/", {"confirm": "1"})
    kept.refresh_from_db()
    assert kept.status == "open"

    # 4. import_store.
    source = tmp_path / "import"
    (source / "conventions").mkdir(parents=True)
    (source / "conventions" / "warehouse.md").write_text(bad_note(), encoding="utf-8")
    buf = io.StringIO()
    call_command("import_store", "project:ACME", str(source), "--as", world.admin.username, "--json", stdout=buf)
    imported = json.loads(buf.getvalue())
    assert imported["refused"] == [{"path": path, "error_code": "secret_detected"}]

    # Every door: the same code, one Refusal each, and the store exactly as it was.
    assert store_state(store) == before
    refusals = Refusal.objects.filter(store=store)
    assert set(refusals.values_list("code", flat=True)) == {"secret_detected"}
    by_door = {door: refusals.filter(door=door).count() for door in ("api", "sync", "console", "import")}
    assert by_door == {"api": 1, "sync": 1, "console": 1, "import": 1}, by_door
    assert all(aws_key() not in r.message for r in refusals)
