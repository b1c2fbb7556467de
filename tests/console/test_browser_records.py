"""The run-record search page (/console/records/) in headless Chromium: a contact searches, narrows
by outcome, follows a hit to its run's page, sees a query it cannot read explained, and the page
holds on a phone-width screen. Screenshots go to test-artifacts/screenshots/."""

from __future__ import annotations

import secrets
from datetime import timedelta

import pytest
from django.utils import timezone

from runs.models import Run
from runs.services import run_record_add
from stores.models import hash_token

from .test_browser import CHROMIUM, page, shot  # noqa: F401  (the page fixture)
from .test_browser_find import sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)"),
]


def make_runs(world) -> dict[str, Run]:
    """Three ACME runs with records (one a QA failure, one holding markup) and one OTHR run."""

    def run(agent, project, ticket: str, days_ago: int, transcript: str, **signals) -> Run:
        made = Run.objects.create(agent=agent, project=project, ticket_key=ticket, host="vm-1",
                                  token_hash=hash_token("mcr_" + secrets.token_hex(12)))
        started = timezone.now() - timedelta(days=days_ago)
        Run.objects.filter(pk=made.pk).update(started_at=started, ended_at=started + timedelta(minutes=40), **signals)
        made.refresh_from_db()
        run_record_add(run=made, transcript=transcript,
                       events=[{"tool": "dbt", "output": f"{ticket}: 12 models built, 40 tests passed"}])
        return made

    return {
        "qa": run(world.agent, world.project, "ACME-11", 6, "QA found the refund totals off by the tax column; "
                  "fixed the orders model and reran the comparison.\n", qa_failed=True, attempts=2),
        "markup": run(world.agent, world.project, "ACME-12", 4, "The refund export holds <script>alert(1)</script> "
                      "in a note column; left it as text.\n"),
        "routine": run(world.agent, world.project, "ACME-13", 2, "Routine loyalty tier refresh; nothing new.\n"),
        "other": run(world.outsider, world.other_project, "OTHR-5", 3, "Refund ledger reconciled for Other Co.\n"),
    }


@pytest.mark.django_db(transaction=True)
def test_contact_searches_records_narrows_by_outcome_and_opens_the_run(page, live_server, world):  # noqa: F811
    runs = make_runs(world)
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    sign_in(page, live_server.url)
    page.click("header a:has-text('Records')")
    page.wait_for_url("**/console/records/")
    shot(page, "records-01-empty-form")

    page.fill("input[name=q]", "refund")
    page.click("form.search-form button:has-text('Search')")
    page.wait_for_url("**/console/records/?**")
    hits = page.locator("ol.hits.records li")
    assert hits.count() == 2  # carol sees ACME's records only: not OTHR-5
    text = page.locator("main").inner_text()
    assert "ACME-12" in text and "ACME-11" in text and "OTHR-5" not in text
    assert page.locator("ol.hits.records mark").count() >= 2
    # The markup in a record is never run or rendered: SQLite's snippet shows the tags as text,
    # PostgreSQL's headline leaves them out.
    assert "alert(1)" in hits.first.inner_text()
    assert page.locator("ol.hits.records script").count() == 0
    shot(page, "records-02-results")

    page.check("input[name=outcome][value=qa_failed]")
    page.click("form.search-form button:has-text('Search')")
    page.wait_for_url("**outcome=qa_failed**")
    assert hits.count() == 1
    assert "QA failed" in hits.first.inner_text() and "Retried" in hits.first.inner_text()
    shot(page, "records-03-qa-failed")

    hits.first.locator("a").first.click()
    page.wait_for_url(f"**/console/runs/{runs['qa'].public_id}/")
    assert "ACME-11" in page.locator("main").inner_text()
    shot(page, "records-04-run-page")
    assert errors == []  # no CSP violation or script error on any page so far

    page.goto(f"{live_server.url}/console/records/?q=%22refund+totals")
    assert "never closed" in page.locator("main").inner_text()
    assert page.locator("h1").inner_text() == "Run records"
    shot(page, "records-05-unreadable-query")
    # The one message now is the page's own 400 status, which Chromium logs; no CSP violation.
    assert [e for e in errors if "400" not in e] == []


@pytest.mark.django_db(transaction=True)
def test_the_records_page_fits_a_phone_width_screen(page, live_server, world):  # noqa: F811
    make_runs(world)
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, live_server.url, username="root-admin")
    page.goto(f"{live_server.url}/console/records/?q=refund")
    assert page.locator("ol.hits.records li").count() == 3  # the admin sees OTHR-5 too
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert page.locator("header a:has-text('Records')").is_visible()
    shot(page, "records-06-phone")
