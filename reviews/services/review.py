"""Starting a review of a store: read it, write proposals, change no memory.

``start_review`` runs a review now (the command); ``request_review`` records one and queues it as
the Celery task ``reviews.review_store`` (Review now); the schedule's beat task starts the due
ones. All three end in ``review_run``, which reads the store once, as a stream, hands each note to
the finders, asks the model when one is configured, checks every proposed text as text (a text
the checks refuse is not offered, only counted), and saves the proposals in one transaction.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from schedule.outbox import enqueue_on_commit
from stores.console_checks.pipeline import decide_where_and_what
from stores.console_checks.reasons import Reason
from stores.console_checks.request import ChangeRequest, Writer
from stores.errors import InvalidRequest
from stores.models import Memory, Store
from stores.operations import Operation

from ..access import require_may_review
from ..models import Review, ReviewProposal, ReviewStatus, ReviewTrigger
from .drafts import Draft, Note
from .finders import decision_sources, finders_for, recent_run_records
from .model_pass import ask_model

logger = logging.getLogger(__name__)

REVIEW_TASK = "reviews.review_store"
READ_CHUNK = 500


def review_create(*, store: Store, trigger: str, started_by=None) -> Review:
    """Record a review to run (status queued). A person must be one who may edit the store."""
    if trigger not in ReviewTrigger.values:
        raise InvalidRequest(f"Unknown review trigger {trigger!r}: one of {', '.join(ReviewTrigger.values)}.")
    if trigger == ReviewTrigger.PERSON or started_by is not None:
        require_may_review(started_by, store, f"review the {store.kind} store '{store.name}'")
    if store.archived_at is not None:
        raise InvalidRequest(f"The store '{store.name}' is archived: it is not reviewed.", code=Reason.STORE_ARCHIVED)
    return Review.objects.create(
        store=store, trigger=trigger, started_by=started_by, status=ReviewStatus.QUEUED, started_at=timezone.now()
    )


def start_review(*, store: Store, trigger: str = ReviewTrigger.COMMAND, started_by=None) -> Review:
    """Review ``store`` now and return the finished review; memory is never changed."""
    return review_run(review_create(store=store, trigger=trigger, started_by=started_by))


def request_review(*, store: Store, started_by) -> Review:
    """Record a review started by a person (Review now) and queue it; it runs in a Celery worker
    (in process, just after the commit, without a broker)."""
    with transaction.atomic():
        review = review_create(store=store, trigger=ReviewTrigger.PERSON, started_by=started_by)
        enqueue_on_commit(REVIEW_TASK, {"review_id": review.public_id})
    return review


def _read_notes(store: Store):
    rows = Memory.objects.filter(store=store, deleted_at__isnull=True).order_by("pk").values_list(
        "pk", "public_id", "path", "content", "content_sha256", "head_version_id", "updated_at"
    )
    for row in rows.iterator(chunk_size=READ_CHUNK):
        yield Note(*row)


def _text_refusal(store: Store, draft: Draft) -> str | None:
    """The reason code the checks would refuse the draft's text with, as text in this store; None if none."""
    if draft.proposed_text is None:
        return None
    request = ChangeRequest(
        writer=Writer(door="review"), store=store, operation=Operation.UPDATE,
        path=draft.paths[0], old_path=draft.paths[0], content=draft.proposed_text,
    )
    decision = decide_where_and_what(request)
    return None if decision.allowed else decision.code


def _decision_context(store: Store) -> list[dict[str, str]]:
    return [{"kind": s.kind, "title": s.title, "text": s.text} for s in decision_sources(store)]


def review_run(review: Review) -> Review:
    """Run a queued review: find proposals, check their texts, save them. Returns the review.

    A review already running or ended is returned as it is (a task delivered twice runs once).
    An error in the model's answer is a notice on the review; any other error marks it failed.
    """
    claimed = Review.objects.filter(pk=review.pk, status=ReviewStatus.QUEUED).update(
        status=ReviewStatus.RUNNING, started_at=timezone.now()
    )
    review.refresh_from_db()
    if not claimed:
        return review
    store = review.store
    try:
        finders = finders_for(store)
        count = 0
        for note in _read_notes(store):
            count += 1
            for finder in finders:
                finder.visit(note)
        drafts: list[Draft] = [d for finder in finders for d in finder.drafts()]
        notices: list[str] = []
        answer = ask_model(store=store, decisions=_decision_context(store), records=recent_run_records(store))
        drafts += answer.drafts
        notices += answer.notices
        offered, refused = [], 0
        for draft in drafts:
            code = _text_refusal(store, draft)
            if code is None:
                offered.append(draft)
            else:
                refused += 1
                logger.info("review %s: a %s proposal was refused by the checks (%s)", review.public_id, draft.kind, code)
        if refused:
            notices.append(f"{refused} proposed text(s) were refused by the console's checks and are not offered.")
        with transaction.atomic():
            ReviewProposal.objects.bulk_create(
                [
                    ReviewProposal(
                        review=review, position=i, kind=d.kind, memory_ids=d.memory_ids, paths=d.paths,
                        evidence=d.evidence, proposed_text=d.proposed_text, base=d.base,
                    )
                    for i, d in enumerate(offered)
                ]
            )
            Review.objects.filter(pk=review.pk).update(
                status=ReviewStatus.FINISHED, finished_at=timezone.now(), memory_count=count,
                proposal_count=len(offered), refused_count=refused, model=settings.REVIEW_MODEL if answer.asked else "",
                error_message=" ".join(notices),
            )
    except Exception as exc:
        Review.objects.filter(pk=review.pk).update(
            status=ReviewStatus.FAILED, finished_at=timezone.now(), error_message=f"The review failed: {type(exc).__name__}."
        )
        logger.exception("review %s of store %s failed", review.public_id, store.public_id)
        raise
    review.refresh_from_db()
    logger.info("review %s of store %s: %d notes, %d proposals", review.public_id, store.public_id, count, len(offered))
    return review


def review_as_dict(review: Review) -> dict[str, Any]:
    """The review as the command's --json prints it: review_id, store_id and its proposals."""
    return {
        "review_id": review.public_id,
        "store_id": review.store.public_id,
        "status": review.status,
        "memory_count": review.memory_count,
        "refused_count": review.refused_count,
        "notice": review.error_message,
        "proposals": [proposal_as_dict(p) for p in review.proposals.order_by("position", "id")],
    }


def proposal_as_dict(p: ReviewProposal) -> dict[str, Any]:
    return {
        "id": p.public_id, "kind": p.kind, "memory_ids": p.memory_ids, "paths": p.paths,
        "evidence": p.evidence, "proposed_text": p.proposed_text, "status": p.status,
    }
