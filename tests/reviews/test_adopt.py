"""Adopting, dismissing and adopting all of a review's proposals: through the checks as door
``review``, attributed to the person, kept as versions; refused, changing nothing, when stale."""

from __future__ import annotations

import pytest

from reviews.models import ProposalStatus
from reviews.services.adopt import adopt_all, adopt_proposal, dismiss_proposal
from reviews.services.review import start_review
from stores.errors import Conflict, PermissionDenied
from stores.models import Memory, Refusal, SetAside, SetAsideStatus
from stores.services import version_hooks
from stores.services.memories import memory_update
from tests import factories as f

from .conftest import versions_snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def doors():
    """The door and person of every version written while the test runs (the version hook sees them)."""
    seen: list[tuple[str, str, str]] = []

    def listener(event):
        seen.append((event.writer.door, event.writer.name, event.memory.public_id))

    version_hooks.on_version_written(listener)
    yield seen
    version_hooks._listeners.remove(listener)


def proposal(review, kind):
    return review.proposals.get(kind=kind)


def head(memory):
    return Memory.history.filter(id=memory.pk).order_by("-history_id").first()


def test_adopting_a_duplicates_fold_updates_the_kept_note_and_deletes_the_other(review_scene, doors):
    s, contact = review_scene, review_scene.world.contact
    review = start_review(store=s.store)
    dup = proposal(review, "duplicates")
    result = adopt_proposal(writer=f.person_writer(contact), proposal=dup)
    assert result.adopted and result.proposal.status == ProposalStatus.ADOPTED
    kept, other = Memory.objects.get(pk=s.dup_b.pk), Memory.objects.get(pk=s.dup_a.pk)
    assert kept.deleted_at is None and kept.content == dup.proposed_text
    assert other.deleted_at is not None and other.deleted_by_person
    assert "folded into /issues/incremental-again.md" in other.delete_reason and dup.public_id in other.delete_reason
    # Versions, written by the person through door review.
    deleted = head(other)
    assert deleted.operation == "deleted" and deleted.history_user == contact and deleted.actor["name"] == "carol"
    assert result.version_ids == [deleted.version_id] or deleted.version_id in result.version_ids
    assert {d for d, _, _ in doors} == {"review"} and {n for _, n, _ in doors} == {"carol"}
    assert result.proposal.decided_by == contact and result.proposal.decided_at is not None
    # The kept note's text was already the fold: no version for it, only the delete.
    assert result.version_ids == [other.head_version_id]


def test_adopting_each_kind_writes_what_it_says(review_scene, doors):
    s, admin = review_scene, review_scene.world.admin
    review = start_review(store=s.store)
    writer = f.person_writer(admin)

    merge = adopt_proposal(writer=writer, proposal=proposal(review, "merge_set_aside"))
    freshness = Memory.objects.get(pk=s.freshness.pk)
    assert merge.adopted and freshness.content == merge.proposal.proposed_text
    assert SetAside.objects.get(pk=s.set_aside.pk).status == SetAsideStatus.USED
    assert head(freshness).history_user == admin and merge.version_ids == [freshness.head_version_id]

    stale = adopt_proposal(writer=writer, proposal=proposal(review, "stale"))
    orders = Memory.objects.get(pk=s.orders.pk)
    assert stale.adopted and orders.deleted_at is not None
    assert orders.delete_reason.startswith(f"review {stale.proposal.public_id}: names raw.orders, removed from the registry 20")

    decision = adopt_proposal(writer=writer, proposal=proposal(review, "decision"))
    currency = Memory.objects.get(pk=s.currency.pk)
    assert decision.adopted and currency.deleted_at is not None
    assert currency.delete_reason == f"review {decision.proposal.public_id}: close to Reporting currency, which stands"
    assert len(doors) == 3 and {d for d, _, _ in doors} == {"review"}


def test_a_proposal_made_stale_by_a_later_write_is_refused_and_nothing_changes(review_scene):
    s = review_scene
    review = start_review(store=s.store)
    dup = proposal(review, "duplicates")
    # An agent saves the other note after the review.
    memory_update(writer=f.agent_writer(s.world.agent), store=s.store, memory_id=s.dup_a.public_id,
                  content=s.dup_a.content + "Also for the orders model.\n")
    before = versions_snapshot(s.store)
    result = adopt_proposal(writer=f.person_writer(s.world.contact), proposal=dup)
    assert not result.adopted and result.code == "stale_base"
    assert "/conventions/incremental.md was saved again after the review" in result.message
    assert versions_snapshot(s.store) == before
    dup.refresh_from_db()
    assert dup.status == ProposalStatus.REFUSED and dup.refusal_code == "stale_base" and dup.refusal_message
    # Decided: adopting it again is a conflict, not a second try.
    with pytest.raises(Conflict) as again:
        adopt_proposal(writer=f.person_writer(s.world.contact), proposal=dup)
    assert again.value.code == "proposal_decided"


def test_a_set_aside_used_since_the_review_refuses_its_merge(review_scene):
    s = review_scene
    review = start_review(store=s.store)
    merge = proposal(review, "merge_set_aside")
    SetAside.objects.filter(pk=s.set_aside.pk).update(status=SetAsideStatus.DISMISSED)
    before = versions_snapshot(s.store)
    result = adopt_proposal(writer=f.person_writer(s.world.admin), proposal=merge)
    assert not result.adopted and result.code == "stale_base" and versions_snapshot(s.store) == before


def test_a_text_the_checks_now_refuse_is_refused_at_adopt_with_the_checks_code(review_scene):
    s = review_scene
    review = start_review(store=s.store)
    dup = proposal(review, "duplicates")
    # The registry now lists a name the folded text holds as another client's: the check refuses it.
    f.make_client("Sessions Corp", aliases=["ACME-31"])
    before = versions_snapshot(s.store)
    result = adopt_proposal(writer=f.person_writer(s.world.admin), proposal=dup)
    assert not result.adopted and result.code == "client_detail"
    assert versions_snapshot(s.store) == before
    refusal = Refusal.objects.get(store=s.store, code="client_detail")
    assert refusal.door == "review" and refusal.writer["name"] == "root-admin"


def test_dismiss_leaves_memory_as_it_is(review_scene):
    s = review_scene
    review = start_review(store=s.store)
    stale = proposal(review, "stale")
    before = versions_snapshot(s.store)
    dismissed = dismiss_proposal(writer=f.person_writer(s.world.contact), proposal=stale)
    assert dismissed.status == ProposalStatus.DISMISSED and dismissed.decided_by == s.world.contact
    assert versions_snapshot(s.store) == before
    with pytest.raises(Conflict):
        dismiss_proposal(writer=f.person_writer(s.world.contact), proposal=stale)


def test_adopt_all_adopts_each_pending_proposal_in_turn(review_scene):
    s = review_scene
    review = start_review(store=s.store)
    dismiss_proposal(writer=f.person_writer(s.world.admin), proposal=proposal(review, "decision"))
    results = adopt_all(writer=f.person_writer(s.world.contact), review=review)
    assert [r.proposal.kind for r in results] == ["merge_set_aside", "duplicates", "stale"]
    assert all(r.adopted for r in results), [r.as_dict() for r in results]
    assert Memory.objects.get(pk=s.currency.pk).deleted_at is None  # the dismissed one stays
    assert set(review.proposals.values_list("status", flat=True)) == {"adopted", "dismissed"}
    assert adopt_all(writer=f.person_writer(s.world.contact), review=review) == []


def test_adopt_all_reports_a_proposal_an_earlier_adopt_made_stale(review_scene):
    s = review_scene
    review = start_review(store=s.store)
    # A second review's stale proposal on the same note: once the first is adopted, the second is stale.
    second = start_review(store=s.store)
    adopt_proposal(writer=f.person_writer(s.world.admin), proposal=proposal(review, "stale"))
    results = adopt_all(writer=f.person_writer(s.world.admin), review=second)
    codes = {r.proposal.kind: r.code for r in results}
    assert codes["stale"] == "stale_base" and codes["duplicates"] == ""
    assert [r.as_dict()["adopted"] for r in results if r.proposal.kind == "stale"] == [False]


@pytest.mark.parametrize("who", ["agent", "other_contact", "staff"])
def test_an_agent_or_a_person_without_rights_is_refused_and_nothing_changes(review_scene, who):
    s = review_scene
    review = start_review(store=s.store)
    writer = f.agent_writer(s.world.agent) if who == "agent" else f.person_writer(getattr(s.world, who))
    before = versions_snapshot(s.store)
    for call in (
        lambda: adopt_proposal(writer=writer, proposal=proposal(review, "duplicates")),
        lambda: dismiss_proposal(writer=writer, proposal=proposal(review, "stale")),
        lambda: adopt_all(writer=writer, review=review),
    ):
        with pytest.raises(PermissionDenied) as refused:
            call()
        assert refused.value.code == ("people_only" if who == "agent" else "person_not_permitted")
    assert versions_snapshot(s.store) == before
    assert set(review.proposals.values_list("status", flat=True)) == {"pending"}
