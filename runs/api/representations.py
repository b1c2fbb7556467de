"""Runs, records, set-aside texts and refusals as the wire carries them: every field, null when empty."""

from __future__ import annotations

from typing import Any

from stores.api.representations import ts
from stores.models import Refusal, SetAside

from ..models import Run, RunRecord


def lesson_answer_json(run: Run) -> dict[str, Any] | None:
    if run.lesson_answered_at is None:
        return None
    return {
        "nothing_to_record": bool(run.lesson_nothing_to_record),
        "why": run.lesson_why or None,
        "memory_version_id": run.lesson_memory_version_id or None,
        "at": ts(run.lesson_answered_at),
    }


def run_json(run: Run) -> dict[str, Any]:
    signals = {
        "qa_failed": run.qa_failed,
        "needed_ruling": run.needed_ruling,
        "worked_past_error": run.worked_past_error,
        "attempts": run.attempts,
    }
    return {
        "type": "run",
        "id": run.public_id,
        "agent": run.agent.name,
        "ticket_key": run.ticket_key,
        "project_key": run.project.key,
        "host": run.host,
        "started_at": ts(run.started_at),
        "ended_at": ts(run.ended_at),
        "active": run.ended_at is None,
        # The signals as /end takes them: grouped, and at the top level beside the run's other fields.
        "signals": signals,
        **signals,
        "versions_written": run.versions_written,
        "stores": run.attachments,
        "lesson_prompt": (run.lesson_prompt or None) if run.lesson_prompted_at else None,
        "lesson_prompted_at": ts(run.lesson_prompted_at),
        "lesson_answer": lesson_answer_json(run),
        "lesson_closed_unanswered_at": ts(run.lesson_closed_unanswered_at),
    }


def record_json(record: RunRecord) -> dict[str, Any]:
    return {
        "type": "run_record",
        "id": record.pk,
        "run_id": record.run.public_id,
        "created_at": ts(record.created_at),
        "transcript": record.transcript,
        "events": record.events,
    }


def set_aside_json(item: SetAside) -> dict[str, Any]:
    return {
        "type": "set_aside",
        "id": item.public_id,
        "memory_id": item.memory.public_id,
        "memory_store_id": item.store.public_id,
        "path": item.path,
        "text": item.text,
        "base_version_id": item.base_version_id or None,
        "lost_to_version_id": item.lost_to_version_id or None,
        "created_by": item.created_by,
        "created_at": ts(item.created_at),
        "status": item.status,
    }


def refusal_json(item: Refusal) -> dict[str, Any]:
    """A refused change, never its text."""
    return {
        "type": "refusal",
        "id": item.pk,
        "memory_store_id": item.store.public_id,
        "path": item.path,
        "operation": item.operation,
        "door": item.door,
        "reason_code": item.code,
        "message": item.message,
        # A keyed fingerprint (equal for resends of one text), never a plain hash of the refused text.
        "content_fingerprint": item.content_fingerprint or None,
        "created_by": item.writer,
        "run_id": item.run_public_id or None,
        "times": item.times,
        "created_at": ts(item.created_at),
        "last_seen_at": ts(item.last_seen_at),
    }
