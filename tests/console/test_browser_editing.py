"""Edit, the conflict page, Revert to this version, and Merge (clean and conflicting) in headless
Chromium, signed in as ACME's escalation contact. Screenshots go to test-artifacts/screenshots/."""

from __future__ import annotations

import pytest

from stores.errors import Refused
from stores.models import Memory, SetAside
from stores.services.content import sha256_hex
from stores.services.memories import memory_update
from tests import factories as f

from .conftest import LIVE_TEXT
from .test_browser import CHROMIUM, page, shot  # noqa: F401  (the Chromium page fixture and screenshots)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)"),
]


def sign_in(page, live_server, username: str = "carol") -> None:  # noqa: F811
    page.goto(f"{live_server.url}/console/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "pw-for-tests-only")
    page.click("button:has-text('Sign in')")
    page.wait_for_url(f"{live_server.url}/console/")


def memory_url(live_server, memory: Memory) -> str:
    return f"{live_server.url}/console/stores/{memory.store.public_id}/memories/{memory.public_id}/"


@pytest.mark.django_db(transaction=True)
def test_edit_with_preview_then_revert(page, live_server, world):  # noqa: F811
    memory = f.make_memory(world.project_store, "/conventions/naming.md", LIVE_TEXT)
    sign_in(page, live_server)
    page.goto(memory_url(live_server, memory))
    page.click("a.button:has-text('Edit')")
    page.wait_for_url("**/edit/")
    assert page.input_value("input[name=path]") == "/conventions/naming.md"
    assert page.input_value("textarea[name=content]") == LIVE_TEXT
    shot(page, "edit-01-form")

    edited = LIVE_TEXT + "\n## Snapshots\n\nSnapshots are named snap_<table> (ACME-31).\n"
    page.fill("textarea[name=content]", edited)
    page.fill("textarea[name=reason]", "Snapshots follow the same rule.")
    page.click("button:has-text('Preview')")
    assert page.locator(".preview h2").inner_text() == "Snapshots"
    assert page.input_value("textarea[name=content]") == edited
    shot(page, "edit-02-preview")
    page.click("button:has-text('Save')")
    page.wait_for_url(memory_url(live_server, memory))
    assert "Saved /conventions/naming.md as a new version." in page.locator(".messages").inner_text()
    assert page.locator(".markdown h2").inner_text() == "Snapshots"
    shot(page, "edit-03-saved")
    saved = Memory.objects.get(pk=memory.pk)
    assert saved.content == edited
    head = saved.history.order_by("-history_id").first()
    assert head.actor["name"] == "carol" and head.history_change_reason == "Snapshots follow the same rule."

    # Revert to the first version: its text comes back as a new version.
    first = saved.history.order_by("history_id").first()
    row = page.locator("tr", has_text=first.version_id)
    row.locator("a:has-text('Revert to this version')").click()
    # A confirmation first: the path, the version brought back, its difference, a reason.
    page.wait_for_url(memory_url(live_server, memory) + f"versions/{first.version_id}/revert/")
    assert first.version_id in page.locator("h1 + .panel").inner_text()
    assert page.locator(".diff").count() == 1
    page.fill("input[name=reason]", "Back to the agreed wording.")
    shot(page, "revert-00-confirm")
    page.locator("button:has-text('Revert')").click()
    page.wait_for_url(memory_url(live_server, memory))
    assert f"Reverted /conventions/naming.md to version {first.version_id}" in page.locator(".messages").inner_text()
    assert page.locator(".markdown h2").count() == 0
    shot(page, "revert-01-done")
    reverted = Memory.objects.get(pk=memory.pk)
    assert reverted.content == LIVE_TEXT and reverted.history.count() == 3
    head = reverted.history.order_by("-history_id").first()
    assert head.history_change_reason.endswith(": Back to the agreed wording.")


@pytest.mark.django_db(transaction=True)
def test_an_edit_that_lost_shows_the_conflict_page_and_a_conflicting_merge(page, live_server, world):  # noqa: F811
    memory = f.make_memory(world.project_store, "/conventions/naming.md", LIVE_TEXT)
    sign_in(page, live_server)
    page.goto(memory_url(live_server, memory) + "edit/")
    mine = LIVE_TEXT + "\nAlso true for snapshots (ACME-14).\n"
    page.fill("textarea[name=content]", mine)
    # An agent saves while the person is editing.
    theirs = LIVE_TEXT + "\nSeen again on ACME-13.\n"
    memory_update(writer=f.agent_writer(world.agent), store=memory.store, memory_id=memory.public_id, content=theirs)
    page.click("button:has-text('Save')")
    page.wait_for_selector("h1:has-text('Not saved')")
    assert "The saved copy stays as it is" in page.locator(".notice").inner_text()
    assert "Seen again on ACME-13." in page.locator(".saved-copy").inner_text()
    assert "Also true for snapshots (ACME-14)." in page.locator(".your-text").inner_text()
    shot(page, "conflict-01-page")
    assert Memory.objects.get(pk=memory.pk).content == theirs

    page.click("a.button:has-text('Merge')")
    page.wait_for_url("**/merge/")
    assert "1 conflict" in page.locator(".merge-conflicts").inner_text()
    assert "<<<<<<< saved copy" in page.input_value("textarea[name=content]")
    shot(page, "merge-conflict-01-marked")
    # Saving with the markers left is refused and keeps the text.
    page.click("button:has-text('Save merged text')")
    page.wait_for_selector(".refusal-code")
    assert page.locator(".refusal-code").inner_text() == "merge_unresolved"
    shot(page, "merge-conflict-02-markers-left")
    resolved = LIVE_TEXT + "\nSeen again on ACME-13.\nAlso true for snapshots (ACME-14).\n"
    page.fill("textarea[name=content]", resolved)
    page.click("button:has-text('Save merged text')")
    page.wait_for_url(memory_url(live_server, memory))
    assert "Saved the merged text" in page.locator(".messages").inner_text()
    shot(page, "merge-conflict-03-saved")
    assert Memory.objects.get(pk=memory.pk).content == resolved
    assert SetAside.objects.get(memory=memory).status == "used"


@pytest.mark.django_db(transaction=True)
def test_a_clean_merge_from_the_set_aside_page(page, live_server, world):  # noqa: F811
    base = "# Feeds\n\nOrders arrive at 06:00.\n\nCustomers arrive at 07:00.\n"
    memory = f.make_memory(world.project_store, "/data/feeds.md", base)
    agent = f.agent_writer(world.agent)
    memory_update(writer=agent, store=memory.store, memory_id=memory.public_id, content=base.replace("06:00", "06:30"))
    with pytest.raises(Refused):
        memory_update(writer=agent, store=memory.store, memory_id=memory.public_id,
                      content=base.replace("07:00", "07:15"), base_sha256=sha256_hex(base))
    set_aside = SetAside.objects.get(memory=memory)
    sign_in(page, live_server)
    page.goto(f"{live_server.url}/console/set-asides/{set_aside.public_id}/")
    shot(page, "merge-clean-01-set-aside")
    page.click("a.button:has-text('Merge')")
    page.wait_for_url("**/merge/")
    assert "merge cleanly" in page.locator(".merge-clean").inner_text()
    merged = "# Feeds\n\nOrders arrive at 06:30.\n\nCustomers arrive at 07:15.\n"
    assert page.input_value("textarea[name=content]") == merged
    shot(page, "merge-clean-02-proposal")
    page.click("button:has-text('Save merged text')")
    page.wait_for_url(memory_url(live_server, memory))
    shot(page, "merge-clean-03-saved")
    assert Memory.objects.get(pk=memory.pk).content == merged
    assert SetAside.objects.get(pk=set_aside.pk).status == "used"
