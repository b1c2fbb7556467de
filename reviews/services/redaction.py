"""A memory's redaction reaches the review proposals that hold its text.

Registered in the reviews app's ready() as the scrubber of ``reviews.ReviewProposal`` on the
redaction service's REACH list. A proposal that concerns the memory loses every text it held
(paths, evidence, proposed text, the base's hashes) and, if still pending, is refused with
``memory_redacted``; any other proposal of the store that quotes one of the texts has the quote
replaced by ``[REDACTED:memory]``.
"""

from __future__ import annotations

import json

from stores.console_checks.reasons import Reason
from stores.services.redaction import REDACTED_QUOTE, quotes_of, replace_quotes

from ..models import ProposalStatus, ReviewProposal


def proposals_scrub_memory(*, memory, texts: list[str]) -> int:
    """Blank the memory's texts in the review proposals of its store; returns how many changed."""
    ordered = quotes_of(texts)
    changed = 0
    for proposal in ReviewProposal.objects.filter(review__store_id=memory.store_id).iterator(chunk_size=200):
        if memory.public_id in (proposal.memory_ids or []):
            fields = {
                "paths": [REDACTED_QUOTE for _ in proposal.paths or []],
                "evidence": {"summary": f"{REDACTED_QUOTE}: a memory this proposal concerned was redacted."},
                "proposed_text": None,
                "base": {},
                "refusal_message": replace_quotes(proposal.refusal_message, ordered),
            }
            if proposal.status == ProposalStatus.PENDING:
                fields.update(status=ProposalStatus.REFUSED, refusal_code=Reason.MEMORY_REDACTED,
                              refusal_message="A memory this proposal concerned was redacted; its text is gone.")
            ReviewProposal.objects.filter(pk=proposal.pk).update(**fields)
            changed += 1
            continue
        if not ordered:
            continue
        blob = json.dumps([proposal.paths, proposal.evidence, proposal.proposed_text, proposal.refusal_message],
                          ensure_ascii=False)
        if not any(q in blob or json.dumps(q, ensure_ascii=False)[1:-1] in blob for q in ordered):
            continue
        ReviewProposal.objects.filter(pk=proposal.pk).update(
            paths=replace_quotes(proposal.paths, ordered),
            evidence=replace_quotes(proposal.evidence, ordered),
            proposed_text=replace_quotes(proposal.proposed_text, ordered),
            refusal_message=replace_quotes(proposal.refusal_message, ordered),
        )
        changed += 1
    return changed
