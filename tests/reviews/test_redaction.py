"""A memory's redaction blanks its text in review proposals too (the redaction service's REACH)."""

from __future__ import annotations

import json

import pytest

from reviews.models import ProposalStatus
from reviews.services.review import start_review
from stores.services.memories import memory_delete
from stores.services.redaction import REACH, REDACTED_QUOTE, memory_redact_all_versions
from tests import factories as f

pytestmark = pytest.mark.django_db


def test_review_proposals_are_on_the_redaction_reach():
    holders = {reach.holder: reach for reach in REACH}
    assert set(holders["reviews.ReviewProposal"].fields) == {"paths", "evidence", "proposed_text", "base", "refusal_message"}


def test_redacting_a_memory_blanks_it_in_every_proposal(review_scene):
    s = review_scene
    review = start_review(store=s.store)
    dup = review.proposals.get(kind="duplicates")
    stale = review.proposals.get(kind="stale")
    admin = f.person_writer(s.world.admin)
    memory_delete(writer=admin, store=s.store, memory_id=s.dup_a.public_id, reason="holds a client's detail")
    memory_redact_all_versions(writer=admin, store=s.store, memory_id=s.dup_a.public_id, reason="client detail")

    dup.refresh_from_db()
    dumped = json.dumps([dup.paths, dup.evidence, dup.proposed_text, dup.base, dup.refusal_message])
    assert "incremental materialisation" not in dumped and s.dup_a.path not in dumped
    assert s.dup_a.content_sha256 not in dumped and s.dup_b.content_sha256 not in dumped
    assert dup.paths == [REDACTED_QUOTE, REDACTED_QUOTE] and dup.proposed_text is None and dup.base == {}
    assert dup.status == ProposalStatus.REFUSED and dup.refusal_code == "memory_redacted"
    # A proposal about another memory is left as it was.
    stale.refresh_from_db()
    assert stale.status == ProposalStatus.PENDING and "raw.orders" in stale.evidence["summary"]


def test_a_proposal_quoting_a_redacted_text_elsewhere_has_the_quote_replaced(review_scene):
    s = review_scene
    review = start_review(store=s.store)
    stale = review.proposals.get(kind="stale")
    quote = stale.evidence["quotes"][0]
    # Another note holds the same line; redacting it replaces the line where the stale proposal quotes it.
    twin = f.make_memory(s.store, "/issues/orders-copy.md", quote + "\n")
    admin = f.person_writer(s.world.admin)
    memory_delete(writer=admin, store=s.store, memory_id=twin.public_id)
    memory_redact_all_versions(writer=admin, store=s.store, memory_id=twin.public_id)
    stale.refresh_from_db()
    assert stale.evidence["quotes"] == [REDACTED_QUOTE] and stale.status == ProposalStatus.PENDING
