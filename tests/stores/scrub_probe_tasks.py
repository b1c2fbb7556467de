"""A task for the scrubbing tests: a Celery worker keeps a run record, as any task saving text would.

A worker started with ``--include tests.stores.scrub_probe_tasks`` runs it in its own process, whose
scrubber is the one its Django start-up installed.
"""

from __future__ import annotations

from celery import shared_task

from runs.models import Run
from runs.services import run_record_add

RECORD_TASK = "tests.stores.scrub_probe_tasks.keep_run_record"


@shared_task(name=RECORD_TASK)
def keep_run_record(*, run_id: str, transcript: str) -> None:
    """Keep ``transcript`` as a record of the run ``run_id`` through the run service."""
    run_record_add(run=Run.objects.get(public_id=run_id), transcript=transcript)
