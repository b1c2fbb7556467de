"""The model's consolidation pass: rewrites and merges proposed by a model, through the Messages API.

Off unless ``REVIEW_MODEL`` is set; the key is ``ANTHROPIC_API_KEY`` from the environment and the
endpoint ``ANTHROPIC_BASE_URL`` if set (the official ``anthropic`` SDK). The model is asked for
strict JSON; whatever comes back is read defensively: an answer that is not the JSON asked for,
or an item that names a note it was not shown, becomes a notice on the review, never a crash.
Every text it proposes is then checked like any other text (by the review, not here).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import anthropic
from django.conf import settings

from stores.console_checks.what_content import MAX_CONTENT_BYTES
from stores.models import Memory, Store

from .drafts import Draft, Note, base_of

SYSTEM_PROMPT = (
    "You review a store of short Markdown notes that software agents keep for later work. Propose "
    "only changes that make the notes clearer or fold notes that say the same thing: a rewrite of one "
    "note, or a merge of several notes into one. Keep every fact; add none. Standing decisions and the "
    "governance template are people's rulings: never restate, weaken or contradict them in a note. "
    "Answer with one JSON object and nothing else, shaped as "
    '{"proposals": [{"kind": "rewrite" or "merge", "memory_ids": ["mem_..."], "text": "the whole new '
    'note", "why": "one sentence"}]}. For a merge, the first memory id is the note that is kept. '
    'Answer {"proposals": []} when nothing needs changing.'
)
MODEL_KINDS = {"rewrite", "merge"}


@dataclass
class ModelAnswer:
    """What the pass proposes, and what it has to say about how it went."""

    drafts: list[Draft] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    asked: bool = False


def model_configured() -> bool:
    """True when a model is named (REVIEW_MODEL): the pass runs."""
    return bool(settings.REVIEW_MODEL)


def _notes_for_model(store: Store) -> tuple[list[Note], int]:
    """The notes shown to the model, path order, within REVIEW_MODEL_MAX_CHARS; and how many exist."""
    budget = settings.REVIEW_MODEL_MAX_CHARS
    shown: list[Note] = []
    total = 0
    rows = Memory.objects.filter(store=store, deleted_at__isnull=True).order_by("path").values_list(
        "pk", "public_id", "path", "content", "content_sha256", "head_version_id", "updated_at"
    )
    for row in rows.iterator(chunk_size=500):
        total += 1
        note = Note(*row)
        cost = len(note.content) + len(note.path) + 40
        if cost <= budget:
            shown.append(note)
            budget -= cost
    return shown, total


def _prompt(store: Store, notes: list[Note], decisions: list[dict[str, str]], records: list[dict[str, Any]]) -> str:
    payload = {
        "store": {"name": store.name, "kind": store.kind},
        "standing_decisions_and_governance_template": decisions,
        "recent_run_records": records,
        "notes": [{"memory_id": n.memory_id, "path": n.path, "text": n.content} for n in notes],
    }
    return (
        "Here is the store as JSON. Run records are context only: what recent runs did with these notes.\n\n"
        + json.dumps(payload, ensure_ascii=False)
    )


_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


def parse_answer(text: str) -> tuple[list[dict[str, Any]] | None, str]:
    """The answer's proposals, or None and why it could not be read. Tolerates a ```json fence
    and words around one object; nothing else."""
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1)
    if not body.startswith("{"):
        start, end = body.find("{"), body.rfind("}")
        if start < 0 or end <= start:
            return None, "the model's answer holds no JSON object"
        body = body[start : end + 1]
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        return None, f"the model's answer is not valid JSON ({exc.msg} at character {exc.pos})"
    if not isinstance(data, dict) or not isinstance(data.get("proposals"), list):
        return None, 'the model\'s answer has no "proposals" list'
    return data["proposals"], ""


def _draft_of(item: Any, notes: dict[str, Note], model: str) -> tuple[Draft | None, str]:
    """A proposal from one item of the answer, or None and why it was not usable."""
    if not isinstance(item, dict):
        return None, "an item is not an object"
    kind, ids, text, why = item.get("kind"), item.get("memory_ids"), item.get("text"), item.get("why", "")
    if kind not in MODEL_KINDS:
        return None, f"an item's kind is {str(kind)[:40]!r}, not rewrite or merge"
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids) or len(set(ids)) != len(ids):
        return None, "an item's memory_ids is not a list of distinct ids"
    unknown = [i for i in ids if i not in notes]
    if unknown:
        return None, f"an item names memories the model was not shown ({', '.join(i[:40] for i in unknown[:3])})"
    if kind == "rewrite" and len(ids) != 1:
        return None, "a rewrite names more than one memory"
    if kind == "merge" and len(ids) < 2:
        return None, "a merge names fewer than two memories"
    if not isinstance(text, str) or not text.strip() or len(text.encode("utf-8")) > MAX_CONTENT_BYTES:
        return None, "an item's text is empty, not text, or too long for a note"
    members = [notes[i] for i in ids]
    if kind == "rewrite" and text == members[0].content:
        return None, "a rewrite repeats the note unchanged"
    why = why if isinstance(why, str) else ""
    verb = "rewrite of" if kind == "rewrite" else f"merge of {len(ids)} notes into"
    return Draft(
        kind="rewrite",
        memory_ids=list(ids),
        paths=[n.path for n in members],
        evidence={
            "summary": f"The model {model} proposes a {verb} {members[0].path}"
            + (f": {why.strip()[:500]}" if why.strip() else ".")
            + (" Adopting keeps the first note with this text and deletes the others." if kind == "merge" else ""),
            "source": "model",
            "model": model,
            "model_kind": kind,
            "why": why.strip()[:500],
        },
        proposed_text=text if text.endswith("\n") else text + "\n",
        base=base_of(members),
    ), ""


def ask_model(*, store: Store, decisions: list[dict[str, str]], records: list[dict[str, Any]]) -> ModelAnswer:
    """Ask REVIEW_MODEL for rewrites and merges of the store's notes; never raises on the answer."""
    answer = ModelAnswer()
    model = settings.REVIEW_MODEL
    if not model:
        return answer
    key = settings.ANTHROPIC_API_KEY
    if not key:
        answer.notices.append("REVIEW_MODEL is set but ANTHROPIC_API_KEY is not: the model pass was skipped.")
        return answer
    notes, total = _notes_for_model(store)
    if not notes:
        return answer
    if len(notes) < total:
        answer.notices.append(
            f"The model was shown {len(notes)} of {total} notes (REVIEW_MODEL_MAX_CHARS is {settings.REVIEW_MODEL_MAX_CHARS})."
        )
    client = anthropic.Anthropic(
        api_key=key,
        base_url=settings.ANTHROPIC_BASE_URL or None,
        timeout=settings.REVIEW_MODEL_TIMEOUT_SECONDS,
        max_retries=1,
    )
    answer.asked = True
    try:
        message = client.messages.create(
            model=model,
            max_tokens=settings.REVIEW_MODEL_MAX_TOKENS,
            system=SYSTEM_PROMPT,
            messages=[{"role": "user", "content": _prompt(store, notes, decisions, records)}],
        )
    except anthropic.APIError as exc:
        status = getattr(exc, "status_code", None)
        answer.notices.append(
            f"The model could not be asked ({type(exc).__name__}{f', HTTP {status}' if status else ''}): "
            "no model proposals this time."
        )
        return answer
    text = "".join(getattr(block, "text", "") for block in (message.content or []) if getattr(block, "type", "") == "text")
    items, problem = parse_answer(text)
    if items is None:
        answer.notices.append(f"The model pass proposed nothing usable: {problem}.")
        return answer
    by_id = {n.memory_id: n for n in notes}
    skipped: list[str] = []
    for item in items:
        draft, why = _draft_of(item, by_id, model)
        if draft is None:
            skipped.append(why)
        else:
            answer.drafts.append(draft)
    if skipped:
        answer.notices.append(
            f"{len(skipped)} of the model's {len(items)} proposals were not usable: " + "; ".join(dict.fromkeys(skipped)) + "."
        )
    return answer
