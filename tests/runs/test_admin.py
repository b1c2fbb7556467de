"""Runs and run records in the admin: people read them there; nobody edits them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from runs.models import Run, RunRecord

from .conftest import RUNS, aws_key

pytestmark = pytest.mark.django_db


def test_admins_read_runs_and_records_without_secrets(client, api, world, run_factory):
    run = run_factory()
    api.as_token(run["token"]).post(f"{RUNS}/{run['id']}/record", {"transcript": f"used {aws_key()}\n"},
                                    format="json")
    client.force_login(world.admin)
    stored = Run.objects.get(public_id=run["id"])
    record = RunRecord.objects.get(run=stored)
    for url in (
        reverse("admin:runs_run_changelist"),
        reverse("admin:runs_run_change", args=[stored.pk]),
        reverse("admin:runs_runrecord_changelist"),
        reverse("admin:runs_runrecord_change", args=[record.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert aws_key() not in response.content.decode()
    page = client.get(reverse("admin:runs_runrecord_change", args=[record.pk])).content.decode()
    assert "[REDACTED:AWS Access Key]" in page
    assert stored.token_hash not in client.get(reverse("admin:runs_run_change", args=[stored.pk])).content.decode()
    assert client.get(reverse("admin:runs_run_add")).status_code == 403


def test_the_admin_action_closes_overdue_prompts(client, api, world, run_factory, settings):
    import datetime

    from django.utils import timezone

    run = run_factory()
    api.as_token(run["token"]).post(f"{RUNS}/{run['id']}/end", {"qa_failed": True}, format="json")
    Run.objects.filter(public_id=run["id"]).update(
        lesson_prompted_at=timezone.now() - datetime.timedelta(hours=settings.LESSON_PROMPT_TIMEOUT_HOURS + 1)
    )
    client.force_login(world.admin)
    stored = Run.objects.get(public_id=run["id"])
    response = client.post(reverse("admin:runs_run_changelist"),
                           {"action": "close_unanswered_prompts", "_selected_action": [stored.pk]})
    assert response.status_code == 302
    assert Run.objects.get(pk=stored.pk).lesson_closed_unanswered_at is not None
