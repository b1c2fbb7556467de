"""A follow-up task for the outbox tests: it appends its number to a file, so every run can be counted.

A Celery worker started with ``--include tests.schedule.probe_tasks`` runs it too.
"""

from __future__ import annotations

from celery import shared_task

NOTE_TASK = "tests.schedule.probe_tasks.note_follow_up"


@shared_task(name=NOTE_TASK)
def note_follow_up(*, path: str, n: int) -> None:
    """Append ``n`` as one line of ``path`` (an O_APPEND write of one short line is atomic)."""
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(f"{n}\n")


def notes(path) -> list[int]:
    """The numbers written so far, in order, duplicates included."""
    try:
        with open(path, encoding="utf-8") as fh:
            return [int(line) for line in fh if line.strip()]
    except FileNotFoundError:
        return []
