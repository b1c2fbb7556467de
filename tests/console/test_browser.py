"""The console in headless Chromium: a contact logs in, finds a memory, deletes it with a reason,
finds it under Recently deleted, restores it, deletes it again and redacts it. A screenshot of
each page is kept under test-artifacts/screenshots/."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.db import connections

from stores.models import Memory, SetAside
from tests import factories as f

from .conftest import LIVE_TEXT, make_set_aside

# Playwright's sync API runs an event loop in this thread; the ORM calls made here are plain
# synchronous ones, so Django's async-safety guard would only get in the way.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)"),
]


@pytest.fixture
def page():
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 860})
        context.set_default_timeout(15_000)
        try:
            yield context.new_page()
        finally:
            # ORM calls made while Playwright's sync API is active open their own database
            # connection; close it here, or the test database cannot be dropped at the end.
            connections.close_all()
            context.close()
            browser.close()


def shot(page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.mark.django_db(transaction=True)
def test_contact_deletes_restores_deletes_again_and_redacts(page, live_server, world):
    store = world.project_store
    memory = f.make_memory(store, "/conventions/naming.md", LIVE_TEXT)
    f.make_memory(store, "/solutions/late-feed.md", "Rerun the orders model after 07:00 when the feed is late.\n")
    f.make_memory(store, "/data/orders.md", "# Orders\n\nOne row per order line, keyed on order_line_id.\n")
    make_set_aside(world, memory, LIVE_TEXT + "\nAlso true for snapshots (ACME-14).\n")
    memory.refresh_from_db()

    # Signs in.
    page.goto(f"{live_server.url}/console/")
    assert "/console/login/" in page.url
    shot(page, "01-login")
    page.fill("input[name=username]", "carol")
    page.fill("input[name=password]", "pw-for-tests-only")
    page.click("button:has-text('Sign in')")
    page.wait_for_url(f"{live_server.url}/console/")
    assert page.locator("h1").inner_text() == "Memory"
    shot(page, "02-memory")

    # Finds the memory.
    page.click(f"a:has-text('{store.name}')")
    page.wait_for_url(f"**/console/stores/{store.public_id}/")
    assert page.locator("text=Set-aside texts waiting").count() == 1
    shot(page, "03-store")
    page.click("a:has-text('naming.md')")
    page.wait_for_url(f"**/memories/{memory.public_id}/")
    assert page.locator(".markdown h1").inner_text() == "Naming"
    shot(page, "04-file")

    # A version and its difference, and the set-aside text beside the saved copy.
    page.click("a:has-text('Difference') >> nth=0")
    page.wait_for_url("**/versions/**")
    assert page.locator(".diff .add").count() >= 1
    shot(page, "05-version-difference")
    page.goto(f"{live_server.url}/console/stores/{store.public_id}/")
    page.click("a:has-text('Compare, use or dismiss')")
    page.wait_for_url("**/console/set-asides/**")
    shot(page, "06-set-aside")

    # Deletes it with a reason.
    page.goto(f"{live_server.url}/console/stores/{store.public_id}/memories/{memory.public_id}/")
    page.click("a.button:has-text('Delete')")
    page.wait_for_url("**/delete/")
    assert page.get_by_text("/conventions/naming.md").count() >= 1
    page.fill("textarea[name=reason]", "The naming rule changed in March.")
    shot(page, "07-delete-confirmation")
    page.click("button:has-text('Delete')")
    page.wait_for_url(f"**/console/stores/{store.public_id}/")
    assert "Deleted /conventions/naming.md" in page.locator(".messages").inner_text()
    shot(page, "08-store-after-delete")
    assert Memory.objects.get(pk=memory.pk).deleted_at is not None

    # Finds it under Recently deleted and restores it.
    page.click("a:has-text('Recently deleted')")
    page.wait_for_url("**/deleted/")
    row = page.locator("tr", has_text="/conventions/naming.md")
    assert "The naming rule changed in March." in row.inner_text()
    shot(page, "09-recently-deleted")
    row.locator("button:has-text('Restore')").click()
    page.wait_for_url(f"**/memories/{memory.public_id}/")
    assert "Restored /conventions/naming.md" in page.locator(".messages").inner_text()
    shot(page, "10-restored")
    assert Memory.objects.get(pk=memory.pk).deleted_at is None

    # Deletes it again and redacts it.
    page.click("a.button:has-text('Delete')")
    page.wait_for_url("**/delete/")
    page.fill("textarea[name=reason]", "It quotes a customer's name.")
    page.click("button:has-text('Delete')")
    page.wait_for_url(f"**/console/stores/{store.public_id}/")
    page.click("a:has-text('Recently deleted')")
    page.wait_for_url("**/deleted/")
    page.locator("tr", has_text="/conventions/naming.md").locator("a:has-text('Redact all versions')").click()
    page.wait_for_url("**/redact/")
    assert "cannot be undone" in page.locator("main").inner_text()
    shot(page, "11-redact-confirmation")
    page.fill("textarea[name=reason]", "It quotes a customer's name.")
    page.fill("input[name=confirm_path]", "/conventions/naming.md")
    page.click("button:has-text('Redact all versions')")
    page.wait_for_url("**/deleted/")
    assert "Redacted all versions" in page.locator(".messages").inner_text()
    assert page.get_by_text("/conventions/naming.md").count() == 0
    shot(page, "12-redacted")

    redacted = Memory.objects.get(pk=memory.pk)
    assert redacted.redacted_at is not None and redacted.redacted_by["name"] == "carol"
    assert all(v.content == "" and v.path == "" for v in redacted.history.all())
    assert SetAside.objects.get(memory=redacted).text == ""

    # Signs out.
    page.click("button:has-text('Log out')")
    page.wait_for_url("**/console/login/")
