"""A store's review in headless Chromium, signed in as ACME's escalation contact: Review now on the
store page, the review's page, Adopt one, Dismiss one, Adopt all, and a stale_base refusal shown.
Screenshots go to test-artifacts/screenshots/."""

from __future__ import annotations

import pytest

from reviews.models import ProposalStatus, Review
from reviews.services.review import start_review
from stores.models import Memory
from stores.services.memories import memory_update
from tests import factories as f
from tests.reviews import conftest as reviews_conftest
from tests.reviews.conftest import versions_snapshot
from tests.schedule.records import EagerTasks

from .test_browser import CHROMIUM, page, shot  # noqa: F401  (the Chromium page fixture and screenshots)
from .test_browser_editing import sign_in

# The review scene of the reviews app's tests: one note of each kind a review finds.
review_scene = reviews_conftest.review_scene

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)",
    ),
]


@pytest.fixture
def eager_tasks():
    """Review now's task runs in the live server's process just after its commit, whatever REDIS_URL says."""
    with EagerTasks():
        yield


def proposal_card(tab, review, kind: str):
    return tab.locator(f"article#{review.proposals.get(kind=kind).public_id}")


@pytest.mark.django_db(transaction=True)
def test_review_now_then_adopt_one_dismiss_one_and_adopt_all(page, live_server, review_scene, eager_tasks):  # noqa: F811
    s = review_scene
    before = versions_snapshot(s.store)
    sign_in(page, live_server)
    page.goto(f"{live_server.url}/console/stores/{s.store.public_id}/")
    assert page.locator("a.button:has-text('Reviews (0)')").count() == 1
    shot(page, "review-01-store")

    page.click("button:has-text('Review now')")
    page.wait_for_url("**/console/reviews/review_*/")
    review = Review.objects.get(store=s.store)
    assert page.url.endswith(f"/console/reviews/{review.public_id}/")
    assert "started" in page.locator(".messages").inner_text()
    assert page.locator(".review-status").inner_text() == "Finished"
    assert page.locator("article.proposal").count() == 4
    assert versions_snapshot(s.store) == before  # the review itself changed nothing
    shot(page, "review-02-proposals")

    # Adopt one: the stale note is deleted, by carol, and the card says so.
    stale = proposal_card(page, review, "stale")
    assert "raw.orders" in stale.inner_text()
    stale.locator("button:has-text('Adopt')").click()
    page.wait_for_url(f"**/console/reviews/{review.public_id}/**")
    stale = proposal_card(page, review, "stale")
    assert "Adopted by carol on" in stale.locator(".decision").inner_text()
    assert stale.locator("button").count() == 0
    orders = Memory.objects.get(pk=s.orders.pk)
    assert (
        orders.deleted_at is not None
        and orders.history.order_by("-history_id").first().actor["name"] == "carol"
    )
    shot(page, "review-03-adopted-one")

    # Dismiss one: the note close to a decision stays.
    decision = proposal_card(page, review, "decision")
    decision.locator("button:has-text('Dismiss')").click()
    page.wait_for_url(f"**/console/reviews/{review.public_id}/**")
    assert (
        "Dismissed by carol on" in proposal_card(page, review, "decision").locator(".decision").inner_text()
    )
    assert Memory.objects.get(pk=s.currency.pk).deleted_at is None
    shot(page, "review-04-dismissed-one")

    # Adopt all: the two left (the set-aside merge and the duplicates fold).
    page.click("button:has-text('Adopt all (2)')")
    page.wait_for_url(f"**/console/reviews/{review.public_id}/")
    assert "Adopted 2 proposals." in page.locator(".messages").inner_text()
    assert page.locator("button:has-text('Adopt')").count() == 0
    statuses = dict(review.proposals.values_list("kind", "status"))
    assert statuses == {
        "merge_set_aside": "adopted",
        "duplicates": "adopted",
        "stale": "adopted",
        "decision": "dismissed",
    }
    assert "Watch the CRM source first." in Memory.objects.get(pk=s.freshness.pk).content
    assert Memory.objects.get(pk=s.dup_a.pk).deleted_at is not None
    shot(page, "review-05-adopted-all")

    # The store's reviews list counts them.
    page.click(".crumbs a:has-text('Reviews')")
    page.wait_for_url(f"**/console/stores/{s.store.public_id}/reviews/")
    row = page.locator("table.reviews tbody tr").first
    assert "Adopted: 3" in row.inner_text() and "Dismissed: 1" in row.inner_text()
    assert "carol" in row.inner_text()
    shot(page, "review-06-store-reviews")


@pytest.mark.django_db(transaction=True)
def test_a_stale_base_refusal_is_shown_and_changes_nothing(page, live_server, review_scene):  # noqa: F811
    s = review_scene
    review = start_review(store=s.store)
    # An agent saves one of the duplicates after the review.
    memory_update(
        writer=f.agent_writer(s.world.agent),
        store=s.store,
        memory_id=s.dup_a.public_id,
        content=s.dup_a.content + "\nAlso for the pageviews model.\n",
    )
    before = versions_snapshot(s.store)
    sign_in(page, live_server)
    page.goto(f"{live_server.url}/console/reviews/{review.public_id}/")
    dup = proposal_card(page, review, "duplicates")
    assert dup.locator(".changed-since").count() == 1
    shot(page, "review-stale-01-warned")
    dup.locator("button:has-text('Adopt')").click()
    page.wait_for_url(f"**/console/reviews/{review.public_id}/**")
    dup = proposal_card(page, review, "duplicates")
    assert dup.locator(".refusal-code").inner_text() == "stale_base"
    assert "was saved again after the review" in dup.locator(".decision").inner_text()
    assert "(stale_base)" in page.locator(".messages").inner_text()
    shot(page, "review-stale-02-refused")
    assert versions_snapshot(s.store) == before
    assert review.proposals.get(kind="duplicates").status == ProposalStatus.REFUSED
