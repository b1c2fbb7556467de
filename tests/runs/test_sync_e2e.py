"""End to end: two `memory-sync` folders on one project store, against the console on a live port."""

from __future__ import annotations

import pytest

from stores.models import Memory, SetAside
from stores.services.memories import memory_delete
from tests import factories as f

from .conftest import aws_key, started
from .sync_helpers import checkout, once, refused

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


def live(world, path: str) -> Memory | None:
    return Memory.objects.filter(store=world.project_store, path=path, deleted_at__isnull=True).first()


def test_two_folders_on_one_project_store(api, world, live_server, tmp_path):
    url = live_server.url
    f.make_memory(world.project_store, "/conventions/naming.md", "# Naming\nModels are snake_case.\n")
    f.make_memory(world.project_store, "/data/orders.md", "# Orders\nOrders arrive late on Mondays.\n")
    f.make_memory(world.project_store, "/issues/flaky.md", "# Flaky test\nThe QA job times out.\n")
    cyd = f.make_agent("cyd", jira_account_id="acc-cyd")
    world.pod.agents.add(cyd)
    run_a = started(api, world.agent_token, "ACME-1")
    run_b = started(api, f.agent_token(cyd), "ACME-2")
    a, b = tmp_path / "a", tmp_path / "b"
    checkout(a, url, run_a)
    checkout(b, url, run_b)
    assert (b / "project/data/orders.md").read_text() == "# Orders\nOrders arrive late on Mondays.\n"
    assert (b / "project/agents/cyd").is_dir() and (a / "project/agents/ada").is_dir()

    # Edits and new files reach the other folder.
    naming = a / "project/conventions/naming.md"
    naming.write_text(naming.read_text() + "Staging models start with stg_.\n")
    (a / "project/solutions/merge-key.md").write_text("# Merge key\nUse order_id as the unique key. ACME-1\n")
    (a / "agent/tools.md").write_text("# dbt retries\nRetry a flaky run once before digging in.\n")
    result = once(a)
    assert (result["pushed"], result["refused"]) == (3, [])
    assert live(world, "/conventions/naming.md").content.endswith("Staging models start with stg_.\n")
    assert live(world, "/solutions/merge-key.md").history.get().actor["session_id"] == run_a["id"]
    result = once(b)
    assert result["pulled"] == 2 and result["pushed"] == 0
    assert (b / "project/conventions/naming.md").read_text() == naming.read_text()
    assert (b / "project/solutions/merge-key.md").read_text().startswith("# Merge key")
    assert not (b / "agent/tools.md").exists()  # ada's own store is not cyd's
    assert once(b) == {"pushed": 0, "pulled": 0, "deleted": 0, "refused": [], "failed": [], "ignored": [],
        "complete": True}

    # A refused note is undone in the folder with its reason beside it, and never reaches the store.
    (a / "project/notes.md").write_text("# Loose note\nSomething.\n")
    (a / "project/issues/creds.md").write_text(f"# Warehouse\nThe loader uses {aws_key()}.\n")
    orders_a = a / "project/data/orders.md"
    saved_orders = orders_a.read_text()
    orders_a.write_text(saved_orders + f"Key for the loader: {aws_key()}\n")
    result = once(a)
    assert sorted((r["path"], r["reason_code"]) for r in result["refused"]) == [
        ("project/data/orders.md", "secret_detected"),
        ("project/issues/creds.md", "secret_detected"),
        ("project/notes.md", "path_outside_folders"),
    ]
    assert not (a / "project/notes.md").exists() and not (a / "project/issues/creds.md").exists()
    assert orders_a.read_text() == saved_orders  # back to the saved copy
    code, message = refused(a, "project/notes.md")
    assert code == "path_outside_folders" and "/conventions/" in message
    assert refused(a, "project/issues/creds.md")[0] == "secret_detected"
    assert live(world, "/notes.md") is None and live(world, "/issues/creds.md") is None
    assert aws_key() not in live(world, "/data/orders.md").content
    assert once(a)["refused"] == []  # undone once; nothing is resent
    # A later good version of the refused file goes through and clears the reason.
    (a / "project/issues/creds.md").write_text("# Warehouse\nThe loader's key is in the vault as LOADER_KEY.\n")
    assert once(a)["pushed"] == 1 and not (a / "project/issues/creds.md.refused").exists()

    # A simultaneous edit of one file: one saved copy, one set-aside text, no line lost.
    flaky_a, flaky_b = a / "project/issues/flaky.md", b / "project/issues/flaky.md"
    flaky_a.write_text(flaky_a.read_text() + "Line from ada: raise the timeout to 20 minutes.\n")
    flaky_b.write_text(flaky_b.read_text() + "Line from cyd: the job runs on the small runner.\n")
    assert once(a)["pushed"] == 1
    result = once(b)
    assert result["refused"] == [{"path": "project/issues/flaky.md", "reason_code": "stale_base"}]
    saved = live(world, "/issues/flaky.md")
    assert "Line from ada" in saved.content and "Line from cyd" not in saved.content
    assert flaky_b.read_text() == saved.content  # the losing folder holds the saved copy
    [aside] = SetAside.objects.filter(memory=saved)
    assert "Line from cyd: the job runs on the small runner." in aside.text
    assert aside.created_by == {"type": "session_actor", "session_id": run_b["id"], "name": "cyd"}
    assert "kept aside" in refused(b, "project/issues/flaky.md")[1]
    every_line = set(saved.content.splitlines()) | set(aside.text.splitlines())
    assert {"Line from ada: raise the timeout to 20 minutes.", "Line from cyd: the job runs on the small runner.",
            "The QA job times out."} <= every_line
    assert once(a)["pulled"] == 0 and once(b)["pushed"] == 0

    # A memory a person deletes leaves both folders at the next pass; the run that edits it after
    # the deletion loses that edit.
    naming_b = b / "project/conventions/naming.md"
    memory = live(world, "/conventions/naming.md")
    memory_delete(writer=f.person_writer(world.contact), store=world.project_store, memory_id=memory.public_id,
                  reason="Wrong convention")
    naming_b.write_text(naming_b.read_text() + "An edit made after the deletion.\n")
    result = once(a)
    assert result["deleted"] == 1 and not naming.exists()
    result = once(b)
    assert result["refused"] == [{"path": "project/conventions/naming.md", "reason_code": "deleted_by_person"}]
    assert not naming_b.exists()
    assert refused(b, "project/conventions/naming.md")[0] == "deleted_by_person"
    assert live(world, "/conventions/naming.md") is None

    # A file deleted in one folder is deleted in the store and leaves the other folder.
    (a / "project/solutions/merge-key.md").unlink()
    assert once(a)["deleted"] == 1
    assert live(world, "/solutions/merge-key.md") is None
    assert once(b)["deleted"] == 1 and not (b / "project/solutions/merge-key.md").exists()

    # Never a wipe: two files gone at once come back.
    (b / "project/data/orders.md").unlink()
    (b / "project/issues/flaky.md").unlink()
    result = once(b)
    assert sorted(r["reason_code"] for r in result["refused"]) == ["deleted_together", "deleted_together"]
    assert (b / "project/data/orders.md").exists() and (b / "project/issues/flaky.md").exists()
    assert live(world, "/data/orders.md") is not None and live(world, "/issues/flaky.md") is not None

    # A rename is one change to the same memory.
    orders_id = live(world, "/data/orders.md").public_id
    (a / "project/data/orders.md").rename(a / "project/data/orders-arrival.md")
    assert once(a)["pushed"] == 1
    assert live(world, "/data/orders-arrival.md").public_id == orders_id
    once(b)
    assert (b / "project/data/orders-arrival.md").exists() and not (b / "project/data/orders.md").exists()
