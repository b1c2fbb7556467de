"""Promotion in headless Chromium: ACME's escalation contact proposes a project note for the
practice store (a client's name refused first, naming the line), a console admin approves, and
the note lands in the practice store, linked from the project note. Screenshots go to
test-artifacts/screenshots/."""

from __future__ import annotations

import pytest

from stores.models import Memory, Promotion, PromotionStatus
from tests import factories as f

from .test_browser import CHROMIUM, page, shot  # noqa: F401  (the Chromium page fixture and screenshots)
from .test_browser_editing import memory_url, sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)",
    ),
]

NOTE = (
    "# Incremental models\n\nUse `is_incremental()` with a lookback window of two days.\n\nSeen on ACME-12.\n"
)
GENERAL = "# Incremental models\n\nUse `is_incremental()` with a lookback window of two days.\n"


def sign_out(page) -> None:  # noqa: F811
    page.click("header button:has-text('Log out')")


@pytest.mark.django_db(transaction=True)
def test_propose_approve_and_the_note_lands_in_the_practice_store(page, live_server, world):  # noqa: F811
    memory = f.make_memory(world.project_store, "/conventions/incremental.md", NOTE)
    sign_in(page, live_server)
    page.goto(memory_url(live_server, memory))
    page.click("a.button:has-text('Propose for the practice store')")
    page.wait_for_url("**/promote/")
    assert page.input_value("input[name=path]") == "/conventions/incremental.md"
    assert page.input_value("textarea[name=text]") == NOTE
    shot(page, "promote-01-form")

    # The note as it is names the project key; with a client's name added, the refusal names the line.
    page.fill("textarea[name=text]", GENERAL + "\nAcme Analytics loads late on Mondays.\n")
    page.fill("textarea[name=reason]", "Holds for every dbt project.")
    page.click("button:has-text('Propose')")
    page.wait_for_selector(".refusal-code")
    assert page.locator(".refusal-code").inner_text() == "client_detail"
    assert "line 5" in page.locator(".passages").inner_text()
    assert "Acme Analytics loads late on Mondays." in page.input_value("textarea[name=text]")
    shot(page, "promote-02-client-detail-refused")
    assert not Promotion.objects.exists()

    page.fill("textarea[name=text]", GENERAL)
    page.click("button:has-text('Propose')")
    page.wait_for_url("**/console/promotions/promo_*/")
    promotion = Promotion.objects.get()
    assert "1 approval from console admins" in page.locator(".rule").inner_text()
    assert page.locator("button[name=approve]").count() == 0  # the proposer never approves
    shot(page, "promote-03-pending")
    sign_out(page)

    sign_in(page, live_server, "root-admin")
    page.click("nav a:has-text('Promotions')")
    page.wait_for_url("**/console/promotions/")
    assert promotion.public_id in page.locator("table.promotions").first.inner_text()
    shot(page, "promote-04-list")
    page.click(f"a:has-text('{promotion.public_id}')")
    page.fill("textarea[name=reason]", "A general dbt lesson.")
    shot(page, "promote-05-approve")
    page.click("button[name=approve]")
    page.wait_for_selector(".landed")
    assert "Approved" in page.locator(".messages").inner_text()
    assert "A general dbt lesson." in page.locator("table.decisions").inner_text()
    shot(page, "promote-06-landed")
    promotion.refresh_from_db()
    assert promotion.status == PromotionStatus.APPROVED
    landed = Memory.objects.get(store=world.practice, path="/conventions/incremental.md")
    assert landed.content == GENERAL and promotion.landed_memory == landed

    page.click(".landed a.landed-link")
    page.wait_for_url(memory_url(live_server, landed))
    assert "promoted from" in page.locator("table").last.inner_text()
    shot(page, "promote-07-practice-note")
    # The project note links to what landed.
    page.goto(memory_url(live_server, memory))
    page.click("a.landed-link")
    page.wait_for_url(memory_url(live_server, landed))
