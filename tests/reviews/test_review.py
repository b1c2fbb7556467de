"""A review of a real store: what it proposes (each kind), that it changes nothing, and the command."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from reviews.models import ProposalKind, Review, ReviewStatus, ReviewTrigger
from reviews.services.review import request_review, start_review
from stores.errors import PermissionDenied
from stores.models import Refusal
from stores.services.merging import three_way_merge
from tests import factories as f
from tests.schedule.records import EagerTasks

from .conftest import DUP_B, SET_ASIDE_BASE, SET_ASIDE_TEXT, versions_snapshot

pytestmark = pytest.mark.django_db


def by_kind(review: Review) -> dict[str, list]:
    found: dict[str, list] = {}
    for p in review.proposals.order_by("position"):
        found.setdefault(p.kind, []).append(p)
    return found


def test_each_kind_of_proposal_is_found_on_a_real_store(review_scene):
    s = review_scene
    review = start_review(store=s.store)
    assert review.status == ReviewStatus.FINISHED and review.trigger == ReviewTrigger.COMMAND
    assert review.memory_count == 6 and review.proposal_count == 4 and review.refused_count == 0
    found = by_kind(review)
    assert sorted(found) == sorted(["merge_set_aside", "duplicates", "stale", "decision"])
    assert all(len(v) == 1 for v in found.values())

    merge = found["merge_set_aside"][0]
    s.freshness.refresh_from_db()
    assert merge.memory_ids == [s.freshness.public_id]
    # The clean three-way merge of the set-aside text onto the saved copy, on the version it was based on.
    assert merge.proposed_text == three_way_merge(SET_ASIDE_BASE, s.freshness.content, SET_ASIDE_TEXT).text
    assert merge.proposed_text.startswith("Watch the CRM source first.\n") and "Seen again on ACME-13." in merge.proposed_text
    assert merge.evidence["set_aside_id"] == s.set_aside.public_id and merge.evidence["two_way"] is False
    assert merge.base["set_aside_id"] == s.set_aside.public_id

    dup = found["duplicates"][0]
    # The longer note is kept, first; the fold is its text (it already holds every line of the other).
    assert dup.memory_ids == [s.dup_b.public_id, s.dup_a.public_id]
    assert dup.paths == [s.dup_b.path, s.dup_a.path]
    assert dup.proposed_text == DUP_B
    assert dup.evidence["pairs"][0]["similarity"] >= 0.6 and dup.evidence["kept"]["path"] == s.dup_b.path

    stale = found["stale"][0]
    assert stale.memory_ids == [s.orders.public_id] and stale.proposed_text is None
    removed = stale.evidence["removed"]
    assert [(r["kind"], r["name"], r["client"]) for r in removed] == [("table", "raw.orders", "Acme Analytics")]
    assert "raw.orders" in stale.evidence["summary"] and removed[0]["removed_at"][:10] in stale.evidence["summary"]
    assert "raw.orders" in stale.evidence["quotes"][0]

    decision = found["decision"][0]
    assert decision.memory_ids == [s.currency.public_id] and decision.proposed_text is None
    ev = decision.evidence
    assert ev["source"]["kind"] == "standing_decision" and ev["source"]["title"] == "Reporting currency"
    assert "never at month-end rates" in ev["source"]["quote"] and "daily rate" in ev["note_quote"]
    assert "not a claim that the note contradicts it" in ev["summary"]

    # Every proposal carries the base it was computed on: each memory's version and text hash.
    for p in review.proposals.all():
        assert set(p.base["memories"]) == set(p.memory_ids)
    assert not any(s.plain.public_id in p.memory_ids for p in review.proposals.all())


def test_a_review_never_changes_a_memory(review_scene):
    before = versions_snapshot(review_scene.store)
    refusals = Refusal.objects.count()
    start_review(store=review_scene.store)
    start_review(store=review_scene.store)
    assert versions_snapshot(review_scene.store) == before
    assert Refusal.objects.count() == refusals


def test_a_registry_name_removed_then_put_back_is_not_stale(review_scene):
    client = review_scene.world.client
    client.refresh_from_db()
    client.tables = ["raw.customers", "raw.orders"]
    client.save()
    review = start_review(store=review_scene.store)
    assert "stale" not in by_kind(review)


def test_the_template_paragraph_a_note_restates_is_flagged(review_scene):
    project = review_scene.world.project
    project.governance_template = (
        "# Governance\n\nEvery change to a finance model is reviewed by the analytics lead before it is merged "
        "to main, and the review is noted on the ticket.\n\nQuestions go to the escalation contact."
    )
    project.save()
    note = f.make_memory(review_scene.store, "/conventions/finance-review.md",
                         "Every change to a finance model is reviewed by the analytics lead before it is merged.\n")
    review = start_review(store=review_scene.store)
    flagged = [p for p in by_kind(review)["decision"] if p.memory_ids == [note.public_id]]
    assert len(flagged) == 1
    assert flagged[0].evidence["source"]["kind"] == "governance_template"
    assert "analytics lead" in flagged[0].evidence["source"]["quote"]


def test_review_json_command_prints_one_object(review_scene):
    out = io.StringIO()
    call_command("review_store", "project:ACME", "--json", stdout=out)
    data = json.loads(out.getvalue())
    review = Review.objects.get(public_id=data["review_id"])
    assert data["store_id"] == review_scene.store.public_id == review.store.public_id
    assert review.trigger == ReviewTrigger.COMMAND
    assert {p["kind"] for p in data["proposals"]} == {"merge_set_aside", "duplicates", "stale", "decision"}
    for p in data["proposals"]:
        assert {"id", "kind", "memory_ids", "paths", "evidence", "proposed_text"} <= set(p)
        assert p["kind"] in ProposalKind.values and isinstance(p["evidence"]["summary"], str)
    stored = {p.public_id: p for p in review.proposals.all()}
    assert set(stored) == {p["id"] for p in data["proposals"]}
    for p in data["proposals"]:
        assert stored[p["id"]].proposed_text == p["proposed_text"] and stored[p["id"]].memory_ids == p["memory_ids"]

    # STORE as import_store takes it: the memstore_ id names the same store.
    out = io.StringIO()
    call_command("review_store", review_scene.store.public_id, "--json", stdout=out)
    assert json.loads(out.getvalue())["store_id"] == review_scene.store.public_id


def test_review_command_without_json_prints_a_summary_and_refuses_an_unknown_store(review_scene):
    out = io.StringIO()
    call_command("review_store", "project:ACME", stdout=out)
    text = out.getvalue()
    assert text.startswith("Review review_") and "6 notes read, 4 proposals" in text
    assert "stale: /conventions/orders-feed.md" in text and "nothing was changed" in text
    with pytest.raises(CommandError, match="does not name a store"):
        call_command("review_store", "nowhere")
    with pytest.raises(CommandError, match="NOPE"):
        call_command("review_store", "project:NOPE")


def test_review_now_is_for_people_who_may_edit_the_store(review_scene, django_capture_on_commit_callbacks):
    w = review_scene.world
    # The task runs in process after the commit (as without a broker).
    with EagerTasks(), django_capture_on_commit_callbacks(execute=True):
        review = request_review(store=review_scene.store, started_by=w.contact)
        assert review.status == ReviewStatus.QUEUED
    review.refresh_from_db()
    assert review.status == ReviewStatus.FINISHED and review.trigger == ReviewTrigger.PERSON
    assert review.started_by == w.contact and review.proposal_count == 4
    for person in (w.other_contact, w.staff):
        with pytest.raises(PermissionDenied) as refused:
            request_review(store=review_scene.store, started_by=person)
        assert refused.value.code == "person_not_permitted"
    assert Review.objects.count() == 1


def test_an_empty_store_is_reviewed_with_nothing_to_propose(world):
    review = start_review(store=world.practice)
    assert review.status == ReviewStatus.FINISHED and review.memory_count == 0 and review.proposal_count == 0


def test_an_agent_store_note_naming_a_dataset_any_client_removed_is_stale(world):
    store = world.agent.store
    note = f.make_memory(store, "/agents/ada/loads.md", "Loads from the ledger_legacy dataset run at night.\n",
                         writer=f.agent_writer(world.agent))
    other = f.make_client("Ledger Co")
    other.datasets = ["ledger_legacy", "ledger_v2"]
    other.save()
    other.datasets = ["ledger_v2"]
    other.save()
    review = start_review(store=store)
    [stale] = by_kind(review)["stale"]
    assert stale.memory_ids == [note.public_id]
    assert [(r["kind"], r["name"], r["client"]) for r in stale.evidence["removed"]] == [
        ("dataset", "ledger_legacy", "Ledger Co")]
