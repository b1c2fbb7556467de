"""Passing the run records kept so far through the secret detector again (after it learned more)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from stores.scrubbing import scrub_json, scrub_text

from .models import Run, RunRecord
from .search import record_index_settle

_MARKER = re.compile(r"\[REDACTED:([^\]\n]{1,80})\]")


@dataclass
class RescrubResult:
    """Counts only: how many records were read and changed, and how many secrets of each type went."""

    dry_run: bool
    records_examined: int = 0
    records_changed: int = 0
    lesson_answers_changed: int = 0
    secrets_replaced: int = 0
    by_type: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "dry_run": self.dry_run,
            "records_examined": self.records_examined,
            "records_changed": self.records_changed,
            "lesson_answers_changed": self.lesson_answers_changed,
            "secrets_replaced": self.secrets_replaced,
            "by_type": dict(sorted(self.by_type.items())),
        }


def _count_new(before: str, after: str, result: RescrubResult) -> None:
    """Add the markers ``after`` holds beyond those ``before`` held, by type (never the values)."""
    old: dict[str, int] = {}
    for m in _MARKER.finditer(before):
        old[m.group(1)] = old.get(m.group(1), 0) + 1
    for m in _MARKER.finditer(after):
        kind = m.group(1)
        if old.get(kind, 0) > 0:
            old[kind] -= 1
            continue
        result.by_type[kind] = result.by_type.get(kind, 0) + 1
        result.secrets_replaced += 1


def run_records_rescrub(*, dry_run: bool = False, batch_size: int = 200) -> RescrubResult:
    """Redact every run record (transcript and events) and lesson answer with the current detector.

    What the detector finds now and did not find when the record was kept is replaced by
    ``[REDACTED:<type>]``; what it replaced before stays replaced, so a second run changes nothing.
    ``dry_run`` counts and writes nothing. Returns counts, never values.
    """
    result = RescrubResult(dry_run=dry_run)
    records = RunRecord.objects.order_by("pk").only("pk", "transcript", "events")
    for record in records.iterator(chunk_size=batch_size):
        result.records_examined += 1
        # What the fields would store now (they scrub again on the update; the scrubber remembers these).
        transcript = scrub_text(record.transcript) if record.transcript else record.transcript
        events = scrub_json(record.events)
        if transcript == record.transcript and events == record.events:
            continue
        result.records_changed += 1
        _count_new(record.transcript or "", transcript or "", result)
        if record.events is not None:
            _count_new(json.dumps(record.events, ensure_ascii=False), json.dumps(events, ensure_ascii=False), result)
        if not dry_run:
            with transaction.atomic():
                RunRecord.objects.filter(pk=record.pk).update(transcript=transcript, events=events)
    if result.records_changed and not dry_run:
        record_index_settle()  # the index followed each row; FTS5 drops the old terms now
    answers = Run.objects.exclude(lesson_why="").order_by("pk").only("pk", "lesson_why")
    for run in answers.iterator(chunk_size=batch_size):
        why = scrub_text(run.lesson_why)
        if why == run.lesson_why:
            continue
        result.lesson_answers_changed += 1
        _count_new(run.lesson_why, why, result)
        if not dry_run:
            Run.objects.filter(pk=run.pk).update(lesson_why=why)
    return result
