"""Runs and run records at chosen instants, for the retention and outbox tests."""

from __future__ import annotations

import uuid
from datetime import datetime

from celery import current_app

from runs.models import Run, RunRecord
from stores.models import HostedAgent, JiraProject


def make_run(project: JiraProject, agent: HostedAgent | None = None) -> Run:
    agent = agent or HostedAgent.objects.create(name=f"agent-{uuid.uuid4().hex[:8]}")
    return Run.objects.create(
        agent=agent, project=project, ticket_key=f"{project.key}-1", token_hash=uuid.uuid4().hex
    )


def make_records(project: JiraProject, *instants: datetime, run: Run | None = None) -> list[RunRecord]:
    """One record of ``project`` created at each instant (all in one run unless given)."""
    run = run or make_run(project)
    return RunRecord.objects.bulk_create(
        RunRecord(run=run, project=project, created_at=at, transcript=f"transcript at {at.isoformat()}")
        for at in instants
    )


def remaining(project: JiraProject | None = None) -> set[datetime]:
    """The created_at instants of the records still there (of one project, or all)."""
    qs = RunRecord.objects.all() if project is None else RunRecord.objects.filter(project=project)
    return set(qs.values_list("created_at", flat=True))


class EagerTasks:
    """Run Celery tasks in this process, whatever REDIS_URL says, and put the setting back after."""

    def __enter__(self) -> EagerTasks:
        conf = current_app.conf
        self.saved = conf.task_always_eager, conf.task_eager_propagates
        conf.task_always_eager, conf.task_eager_propagates = True, True
        return self

    def __exit__(self, *exc: object) -> None:
        current_app.conf.task_always_eager, current_app.conf.task_eager_propagates = self.saved
