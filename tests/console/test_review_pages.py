"""The console's review pages through Django's test client: Review now on the store page, a store's
reviews, a review's proposals with their diffs, Adopt, Dismiss and Adopt all, who may use them, and
refusals (stale_base, a checks refusal) shown with their code while memory stays as it was."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client as DjangoClient

from reviews.models import ProposalStatus, Review, ReviewProposal, ReviewStatus
from reviews.services.review import start_review
from schedule import outbox
from schedule.models import OutboxMessage
from stores.models import Memory
from stores.services import version_hooks
from stores.services.memories import memory_delete, memory_update
from stores.services.redaction import memory_redact_all_versions
from tests import factories as f
from tests.reviews import conftest as reviews_conftest
from tests.reviews.conftest import DUP_B, versions_snapshot
from tests.schedule.procs import (
    REDIS_SERVER,
    PrivateRedis,
    celery_worker,
    child_env,
    shared_database_url,
    use_broker,
    wait_for,
)
from tests.schedule.records import EagerTasks

from .conftest import ROLES
from .html_tags import tags_in
from .test_csp import assert_locked_down

# The review scene of the reviews app's tests: one note of each kind a review finds.
review_scene = reviews_conftest.review_scene

pytestmark = pytest.mark.django_db

REVIEWERS = {"admin", "contact"}


@pytest.fixture
def eager_tasks():
    """Review now's Celery task runs in this process, as it does without REDIS_URL."""
    with EagerTasks():
        yield


@pytest.fixture
def review_now(client, django_capture_on_commit_callbacks, eager_tasks):
    """POST Review now for ``store``; the test's transaction never commits, so the hooks queued on
    commit (the review's task) are run when the request is done, as a commit would run them."""

    def post(store):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(reviews_url(store))

    return post


@pytest.fixture
def doors():
    """(door, writer name) of every version written while the test runs, as the version hook sees them."""
    seen: list[tuple[str, str]] = []

    def listener(event):
        seen.append((event.writer.door, event.writer.name))

    version_hooks.on_version_written(listener)
    yield seen
    version_hooks._listeners.remove(listener)


def as_role(client, world, role: str):
    user = {
        "admin": world.admin,
        "contact": world.contact,
        "other_contact": world.other_contact,
        "staff": world.staff,
        "anonymous": None,
    }[role]
    if user is not None:
        client.force_login(user)
    return client


def store_url(store) -> str:
    return f"/console/stores/{store.public_id}/"


def reviews_url(store) -> str:
    return f"/console/stores/{store.public_id}/reviews/"


def review_url(review) -> str:
    return f"/console/reviews/{review.public_id}/"


def action_url(review, proposal, action: str) -> str:
    return f"/console/reviews/{review.public_id}/proposals/{proposal.public_id}/{action}/"


def text(response) -> str:
    """The page's text without tags, whitespace collapsed (for plain-language assertions)."""
    body = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", body)


def card(response, proposal) -> str:
    """The HTML of one proposal's card on the review page."""
    html = response.content.decode()
    start = html.index(f'id="{proposal.public_id}"')
    end = html.find("</article>", start)
    return html[start:end]


def test_the_store_page_offers_review_now_and_links_to_the_reviews(client, review_scene):
    s = review_scene
    as_role(client, s.world, "contact")
    html = client.get(store_url(s.store)).content.decode()
    assert f'action="{reviews_url(s.store)}"' in html and "Review now" in html
    assert f'href="{reviews_url(s.store)}"' in html and "Reviews (0)" in html
    review = start_review(store=s.store)
    html = client.get(store_url(s.store)).content.decode()
    assert "Reviews (1)" in html and f'Latest review: <a href="{review_url(review)}">finished' in html


def test_an_archived_store_offers_no_review_now(client, review_scene):
    s = review_scene
    s.store.archived_at = s.store.created_at
    s.store.save()
    as_role(client, s.world, "admin")
    assert "Review now" not in client.get(store_url(s.store)).content.decode()
    before = Review.objects.count()
    response = client.post(reviews_url(s.store), follow=True)
    assert "archived" in text(response) and Review.objects.count() == before


def test_review_now_starts_a_review_as_the_person_and_goes_to_its_page(client, review_scene, review_now):
    s = review_scene
    before = versions_snapshot(s.store)
    as_role(client, s.world, "contact")
    response = review_now(s.store)
    review = Review.objects.get(store=s.store)
    assert response.status_code == 302 and response["Location"] == review_url(review)
    assert review.trigger == "person" and review.started_by == s.world.contact
    assert review.status == ReviewStatus.FINISHED and review.proposal_count == 4
    page = client.get(response["Location"])
    assert page.status_code == 200
    body = text(page)
    assert "Finished" in body and "by carol (A person (Review now))" in body
    for kind in ("merge_set_aside", "duplicates", "stale", "decision"):
        assert kind in body
    # A review changes no memory by itself.
    assert versions_snapshot(s.store) == before


def test_the_review_page_shows_evidence_memories_and_a_diff_for_each_proposal(client, review_scene):
    s = review_scene
    review = start_review(store=s.store)
    as_role(client, s.world, "admin")
    page = client.get(review_url(review))
    dup = review.proposals.get(kind="duplicates")
    html = card(page, dup)
    # The memories it touches, linked to their pages; the evidence; the diff (deleting the other note).
    for memory in (s.dup_a, s.dup_b):
        assert f'href="/console/stores/{s.store.public_id}/memories/{memory.public_id}/"' in html
        assert memory.path in html
    assert "share most of their wording" in html and "threshold" in html
    assert '<div class="remove">-# Incremental models</div>' in html
    assert "Adopt</button>" in html and "Dismiss</button>" in html
    # A merge shows the line the set-aside text adds.
    merge = card(page, review.proposals.get(kind="merge_set_aside"))
    assert '<div class="add">+Watch the CRM source first.</div>' in merge
    # A stale note names what the registry removed.
    assert "raw.orders" in card(page, review.proposals.get(kind="stale"))
    assert "Adopt all (4)" in page.content.decode()


def test_adopt_writes_versions_as_the_person_at_door_review(client, review_scene, doors):
    s = review_scene
    review = start_review(store=s.store)
    stale = review.proposals.get(kind="stale")
    as_role(client, s.world, "contact")
    response = client.post(action_url(review, stale, "adopt"))
    assert response.status_code == 302 and response["Location"] == review_url(review) + f"#{stale.public_id}"
    orders = Memory.objects.get(pk=s.orders.pk)
    assert orders.deleted_at is not None
    head = orders.history.order_by("-history_id").first()
    assert head.history_user == s.world.contact and head.actor["name"] == "carol"
    assert doors == [("review", "carol")]
    stale.refresh_from_db()
    assert stale.status == ProposalStatus.ADOPTED and stale.decided_by == s.world.contact
    assert stale.version_ids == [head.version_id]
    page = client.get(response["Location"])
    html = card(page, stale)
    assert "Adopted by carol on" in text(page) and head.version_id in html
    assert "Adopt</button>" not in html
    assert "Adopted" in text(page) and "Adopted " + stale.public_id in text(page)


def test_dismiss_keeps_memory_and_shows_who_dismissed(client, review_scene):
    s = review_scene
    review = start_review(store=s.store)
    decision = review.proposals.get(kind="decision")
    before = versions_snapshot(s.store)
    as_role(client, s.world, "admin")
    page = client.post(action_url(review, decision, "dismiss"), follow=True)
    decision.refresh_from_db()
    assert decision.status == ProposalStatus.DISMISSED and decision.decided_by == s.world.admin
    assert versions_snapshot(s.store) == before
    html = card(page, decision)
    assert "Dismissed by root-admin on" in re.sub(r"\s+", " ", html) and "memory stays as it was" in html


def test_a_stale_proposal_is_refused_with_stale_base_and_changes_nothing(client, review_scene):
    s = review_scene
    review = start_review(store=s.store)
    dup = review.proposals.get(kind="duplicates")
    # An agent saves one of the notes after the review.
    memory_update(
        writer=f.agent_writer(s.world.agent),
        store=s.store,
        memory_id=s.dup_a.public_id,
        content=s.dup_a.content + "\nAlso for the pageviews model.\n",
    )
    as_role(client, s.world, "contact")
    page = client.get(review_url(review))
    assert "changed since the review" in card(page, dup)
    before = versions_snapshot(s.store)
    page = client.post(action_url(review, dup, "adopt"), follow=True)
    assert versions_snapshot(s.store) == before
    dup.refresh_from_db()
    assert dup.status == ProposalStatus.REFUSED and dup.refusal_code == "stale_base"
    html = card(page, dup)
    assert '<span class="tag danger mono refusal-code">stale_base</span>' in html
    assert "was saved again after the review" in html and "nothing was changed" in html
    assert "Not adopted: " in text(page) and "(stale_base)" in text(page)
    # Decided now: a second Adopt is refused as decided and still changes nothing.
    page = client.post(action_url(review, dup, "adopt"), follow=True)
    assert "already refused" in text(page) and versions_snapshot(s.store) == before


def test_a_checks_refusal_is_shown_with_its_code(client, review_scene):
    s = review_scene
    review = start_review(store=s.store)
    dup = review.proposals.get(kind="duplicates")
    assert "ACME-31" in DUP_B
    f.make_client("Sessions Corp", aliases=["ACME-31"])
    before = versions_snapshot(s.store)
    as_role(client, s.world, "admin")
    page = client.post(action_url(review, dup, "adopt"), follow=True)
    assert versions_snapshot(s.store) == before
    assert '<span class="tag danger mono refusal-code">client_detail</span>' in card(page, dup)


def test_adopt_all_adopts_each_pending_proposal_and_shows_the_outcomes(client, review_scene, doors):
    s = review_scene
    review = start_review(store=s.store)
    as_role(client, s.world, "contact")
    client.post(action_url(review, review.proposals.get(kind="decision"), "dismiss"))
    page = client.post(f"/console/reviews/{review.public_id}/adopt-all/", follow=True)
    statuses = dict(review.proposals.values_list("kind", "status"))
    assert statuses == {
        "merge_set_aside": "adopted",
        "duplicates": "adopted",
        "stale": "adopted",
        "decision": "dismissed",
    }
    assert "Adopted 3 proposals." in text(page)
    assert {d for d, _ in doors} == {"review"} and {n for _, n in doors} == {"carol"}
    assert Memory.objects.get(pk=s.orders.pk).deleted_at is not None
    assert Memory.objects.get(pk=s.currency.pk).deleted_at is None  # dismissed: left alone
    assert "Adopt all" not in page.content.decode() and "Adopt</button>" not in page.content.decode()
    # The store's reviews list counts the proposals by kind and by status.
    listing = text(client.get(reviews_url(s.store)))
    assert "Adopted: 3" in listing and "Dismissed: 1" in listing
    assert (
        "Fold near-duplicate notes into one: 1" in listing and "Names what the registry removed: 1" in listing
    )


def test_adopt_all_refuses_what_a_later_write_made_stale(client, review_scene):
    s = review_scene
    review = start_review(store=s.store)
    memory_update(
        writer=f.agent_writer(s.world.agent),
        store=s.store,
        memory_id=s.orders.public_id,
        content=s.orders.content + "\nChecked again.\n",
    )
    as_role(client, s.world, "admin")
    page = client.post(f"/console/reviews/{review.public_id}/adopt-all/", follow=True)
    stale = review.proposals.get(kind="stale")
    assert stale.status == ProposalStatus.REFUSED and stale.refusal_code == "stale_base"
    assert Memory.objects.get(pk=s.orders.pk).deleted_at is None
    assert "Adopted 3 proposals." in text(page) and f"Not adopted: {stale.public_id}" in text(page)


def test_the_reviews_list_says_who_started_each_review(client, review_scene, review_now):
    s = review_scene
    start_review(store=s.store)
    as_role(client, s.world, "contact")
    review_now(s.store)
    listing = text(client.get(reviews_url(s.store)))
    assert "carol (A person (Review now))" in listing and "The review_store command" in listing
    assert listing.count("Finished") == 2


@pytest.mark.parametrize("role", ROLES)
def test_only_those_who_may_edit_the_store_reach_the_pages(client, review_scene, role, eager_tasks):
    s = review_scene
    review = start_review(store=s.store)
    proposal = review.proposals.get(kind="stale")
    as_role(client, s.world, role)
    before = versions_snapshot(s.store)
    reviews_before = Review.objects.count()
    answers = [
        client.get(reviews_url(s.store)),
        client.get(review_url(review)),
        client.post(action_url(review, proposal, "adopt")),
        client.post(action_url(review, proposal, "dismiss")),
        client.post(f"/console/reviews/{review.public_id}/adopt-all/"),
        client.post(reviews_url(s.store)),
    ]
    if role in REVIEWERS:
        assert [a.status_code for a in answers] == [200, 200, 302, 302, 302, 302]
        return
    if role == "anonymous":
        assert all(a.status_code == 302 and a["Location"].startswith("/console/login/") for a in answers)
    else:
        assert [a.status_code for a in answers] == [404] * 6
        assert "Review now" not in client.get(store_url(s.store)).content.decode()
    assert versions_snapshot(s.store) == before and Review.objects.count() == reviews_before
    assert ReviewProposal.objects.get(pk=proposal.pk).status == ProposalStatus.PENDING


def test_an_agent_has_no_console(review_scene):
    """An agent's token opens no console page: the console signs in people only."""
    s = review_scene
    review = start_review(store=s.store)
    agent = DjangoClient(headers={"Authorization": f"Bearer {s.world.agent_token}"})
    for response in (agent.get(review_url(review)), agent.post(reviews_url(s.store))):
        assert response.status_code == 302 and response["Location"].startswith("/console/login/")
    assert Review.objects.count() == 1


def test_actions_are_post_only_with_csrf(review_scene):
    s = review_scene
    review = start_review(store=s.store)
    proposal = review.proposals.get(kind="stale")
    strict = DjangoClient(enforce_csrf_checks=True)
    strict.force_login(s.world.admin)
    assert strict.get(action_url(review, proposal, "adopt")).status_code == 405
    assert strict.get(f"/console/reviews/{review.public_id}/adopt-all/").status_code == 405
    assert strict.post(action_url(review, proposal, "adopt")).status_code == 403
    assert strict.post(reviews_url(s.store)).status_code == 403
    assert ReviewProposal.objects.get(pk=proposal.pk).status == ProposalStatus.PENDING
    assert Review.objects.count() == 1
    # The pages run no script and say so; their one stylesheet is allowed by its hash.
    for url in (review_url(review), reviews_url(s.store), store_url(s.store)):
        page = strict.get(url)
        assert page.status_code == 200
        assert_locked_down(page)
        assert not [attrs for _tag, attrs in tags_in(page.content.decode()) if "style" in attrs]


def test_memory_text_is_escaped_on_the_review_page(client, review_scene):
    s = review_scene
    f.make_memory(s.store, "/conventions/html-a.md", DUP_B.replace("Seen on", "<b>Seen</b> on"))
    review = start_review(store=s.store)
    as_role(client, s.world, "admin")
    html = client.get(review_url(review)).content.decode()
    assert "<b>Seen</b>" not in html and "&lt;b&gt;Seen&lt;/b&gt;" in html


def test_an_unknown_review_or_proposal_is_404(client, review_scene):
    s = review_scene
    review = start_review(store=s.store)
    as_role(client, s.world, "admin")
    assert client.get("/console/reviews/review_nope/").status_code == 404
    assert (
        client.post(f"/console/reviews/{review.public_id}/proposals/proposal_nope/adopt/").status_code == 404
    )


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(REDIS_SERVER is None, reason="needs the redis-server program for a private Redis")
def test_review_now_runs_in_a_real_celery_worker(client, review_scene, tmp_path, monkeypatch):
    """Review now queues the review through the outbox to Redis; a Celery worker (its own process, on
    this test's PostgreSQL database) runs it; the page shows it queued, then its proposals."""
    if connection.vendor != "postgresql":
        pytest.skip("a worker process shares the test database only on PostgreSQL")
    s = review_scene
    # The outbox remembers a broker failure of an earlier test for a few seconds; start without one.
    monkeypatch.setattr(outbox, "_broker_down_until", 0.0)
    as_role(client, s.world, "contact")
    with PrivateRedis(tmp_path) as redis, use_broker(redis.url):
        response = client.post(reviews_url(s.store))
        review = Review.objects.get(store=s.store)
        assert response["Location"] == review_url(review)
        assert review.status == ReviewStatus.QUEUED
        # Handed to the broker after the commit, so nothing waits in the outbox.
        assert not OutboxMessage.objects.exists(), list(
            OutboxMessage.objects.values("task_name", "last_error")
        )
        assert "This review is queued" in text(client.get(review_url(review)))
        env = child_env(broker_url=redis.url, database_url=shared_database_url())
        with celery_worker(env, tmp_path) as worker:
            wait_for(
                lambda: Review.objects.get(pk=review.pk).status == ReviewStatus.FINISHED,
                60,
                what=lambda: f"the review in the worker\n--- worker\n{worker.log()[-2000:]}",
            )
            log = worker.log()
    assert "reviews.review_store" in log and "succeeded" in log
    page = text(client.get(review_url(review)))
    assert "Finished" in page and "Adopt all (4)" in page and "queued" not in page


def test_a_redacted_memory_leaves_its_proposal_refused_and_its_text_and_path_gone(client, review_scene):
    s = review_scene
    review = start_review(store=s.store)
    stale = review.proposals.get(kind="stale")
    admin = f.person_writer(s.world.admin)
    memory_delete(writer=admin, store=s.store, memory_id=s.orders.public_id, reason="names a client table")
    memory_redact_all_versions(
        writer=admin, store=s.store, memory_id=s.orders.public_id, reason="client detail"
    )
    as_role(client, s.world, "admin")
    page = client.get(review_url(review))
    html = card(page, stale)
    assert '<span class="tag danger mono refusal-code">memory_redacted</span>' in html
    assert "Its text was redacted." in html and "Nothing was changed" in html
    body = page.content.decode()
    assert s.orders.path not in body and "nightly orders export" not in body
