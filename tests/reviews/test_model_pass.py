"""The model pass against a Messages API stand-in on 127.0.0.1, through the official SDK: its
rewrites and merges become proposals, its text is checked like any text, bad answers are notices."""

from __future__ import annotations

import secrets

import pytest
from django.utils import timezone

from reviews.models import ReviewStatus
from reviews.services.adopt import adopt_proposal
from reviews.services.model_pass import parse_answer
from reviews.services.review import start_review
from runs.models import Run, RunRecord
from stores.models import Memory, hash_token
from tests import factories as f
from tests.messages_standin import INJECTION

from .conftest import versions_snapshot

pytestmark = pytest.mark.django_db


def model_proposals(review):
    return list(review.proposals.filter(kind="rewrite").order_by("position"))


def test_without_review_model_no_model_is_asked(review_scene, settings):
    settings.REVIEW_MODEL = ""
    review = start_review(store=review_scene.store)
    assert review.model == "" and not review.proposals.filter(kind="rewrite").exists()


def test_the_models_rewrites_and_merges_are_proposals_with_their_base(review_scene, messages_standin):
    s = review_scene
    # A recent run record of the project: the model gets it as context.
    run = Run.objects.create(agent=s.world.agent, project=s.world.project, ticket_key="ACME-40",
                             token_hash=hash_token(secrets.token_hex(16)))
    RunRecord.objects.create(run=run, project=s.world.project, created_at=timezone.now(),
                             transcript="read /conventions/incremental.md\nrebuilt the events model\n")
    before = versions_snapshot(s.store)
    review = start_review(store=s.store)
    assert review.status == ReviewStatus.FINISHED and review.model == "claude-standin-review"
    assert versions_snapshot(s.store) == before
    # The request: the notes, the standing decision and the SDK's own headers (checked by the stand-in).
    sent = messages_standin.requests[0]
    assert sent["model"] == "claude-standin-review" and sent["max_tokens"] > 0
    prompt = sent["messages"][0]["content"]
    assert "Reporting currency" in prompt and "Standing decisions" in sent["system"]
    assert run.public_id in prompt and "rebuilt the events model" in prompt
    proposals = model_proposals(review)
    assert [len(p.memory_ids) for p in proposals] == [1, 2]
    rewrite, merge = proposals
    first = Memory.objects.filter(store=s.store, deleted_at__isnull=True).order_by("path").first()
    assert rewrite.memory_ids == [first.public_id] and rewrite.proposed_text.startswith("# ")
    assert "In short:" in rewrite.proposed_text and rewrite.evidence["model"] == "claude-standin-review"
    assert rewrite.base["memories"][first.public_id] == {"version_id": first.head_version_id, "sha256": first.content_sha256}
    assert set(merge.memory_ids) == {s.dup_a.public_id, s.dup_b.public_id} and merge.evidence["model_kind"] == "merge"
    assert review.refused_count == 0 and review.error_message == ""

    # Adopting the model's merge keeps the first note with the text and deletes the other.
    result = adopt_proposal(writer=f.person_writer(s.world.admin), proposal=merge)
    assert result.adopted
    kept, gone = (Memory.objects.get(public_id=i) for i in merge.memory_ids)
    assert kept.content == merge.proposed_text and gone.deleted_at is not None


def test_a_proposed_text_the_checks_refuse_is_not_offered_and_is_counted(review_scene, messages_standin):
    messages_standin.behaviour = "inject"
    review = start_review(store=review_scene.store)
    texts = [p.proposed_text or "" for p in review.proposals.all()]
    assert not any(INJECTION in t for t in texts)
    assert review.refused_count == 1 and "refused by the console's checks" in review.error_message
    assert len(model_proposals(review)) == 1  # the merge, which holds no instruction, is offered
    assert review.proposal_count == 5


@pytest.mark.parametrize(
    ("behaviour", "notice"),
    [
        ("not_json", "the model's answer is not valid JSON"),
        ("wrong_shape", 'has no "proposals" list'),
        ("unknown_ids", "names memories the model was not shown"),
        ("status", "The model could not be asked (OverloadedError, HTTP 529)"),
    ],
)
def test_a_bad_answer_is_a_notice_on_the_review_never_a_crash(review_scene, messages_standin, behaviour, notice):
    messages_standin.behaviour = behaviour
    review = start_review(store=review_scene.store)
    assert review.status == ReviewStatus.FINISHED
    assert notice in review.error_message
    assert model_proposals(review) == []
    # The proposals needing no model are there all the same.
    assert review.proposal_count == 4


def test_a_wrong_key_is_a_notice(review_scene, messages_standin, settings):
    settings.ANTHROPIC_API_KEY = "-".join(["wrong", "key"])
    review = start_review(store=review_scene.store)
    assert "AuthenticationError, HTTP 401" in review.error_message and review.proposal_count == 4


def test_review_model_without_a_key_skips_the_pass(review_scene, messages_standin, settings):
    settings.ANTHROPIC_API_KEY = ""
    review = start_review(store=review_scene.store)
    assert "ANTHROPIC_API_KEY is not" in review.error_message and messages_standin.requests == []


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ('{"proposals": []}', True),
        ('```json\n{"proposals": []}\n```', True),
        ('Sure. {"proposals": []} Hope that helps.', True),
        ("no json here", False),
        ('{"proposals": {}}', False),
        ("[1, 2]", False),
        ('{"proposals": [}', False),
    ],
)
def test_parse_answer_reads_one_object_defensively(text, ok):
    items, problem = parse_answer(text)
    assert (items is not None) == ok and (problem == "") == ok
