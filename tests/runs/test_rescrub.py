"""Run records are scrubbed by the checks' own detector, and ``rescrub_run_records`` passes the
records kept so far through it again. Secrets are built from fragments at run time."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.db import connection, models

from runs.models import Run, RunRecord

from .conftest import RUNS

pytestmark = pytest.mark.django_db

PHRASE = "copper" + "." + "lantern" + "." + "delta" + "42"
LOADER_PW = "hT7v" + "Qm2L" + "x9sW"
DOCKER = "dckr" + "_pat_" + "A1b2C3d4" + "E5f6G7h8" + "I9j0K1l2" + "M3n"


def test_a_record_loses_every_credential_the_checks_would_refuse(api, world, run_factory):
    run = run_factory()
    transcript = (
        "Connected to the warehouse.\n"
        f"log in as etl_runner with {PHRASE}\n"
        f"Passwort für LOADER: {LOADER_PW}\n"
        f"pushed with {DOCKER}\n"
    )
    events = [{"type": "tool_result", "output": f"the archive opens with {LOADER_PW}"}]
    response = api.as_token(run["token"]).post(
        f"{RUNS}/{run['id']}/record", {"transcript": transcript, "events": events}, format="json"
    )
    assert response.status_code == 200, response.content
    stored = RunRecord.objects.get(run__public_id=run["id"])
    kept = stored.transcript + json.dumps(stored.events)
    for secret in (PHRASE, LOADER_PW, DOCKER):
        assert secret not in kept
    assert "Connected to the warehouse." in stored.transcript
    assert stored.transcript.count("[REDACTED:") == 3


def _rescrub(*args: str) -> dict:
    out = io.StringIO()
    call_command("rescrub_run_records", "--json", *args, stdout=out)
    return json.loads(out.getvalue())


def _as_kept_by_an_older_detector(record: RunRecord, *, transcript: str, events: list) -> None:
    """Put ``transcript`` and ``events`` in the record's row as they are, in SQL: every door of the
    ORM scrubs them (the fields do), as an older detector would not have."""
    table = RunRecord._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET transcript = %s, events = %s WHERE id = %s",
            [transcript, models.JSONField().get_db_prep_save(events, connection), record.pk],
        )


def test_rescrub_counts_on_a_dry_run_rewrites_on_a_real_one_and_is_idempotent(api, world, run_factory):
    run = run_factory()
    # Records kept by an older detector: written straight to the table, as they sit there now.
    old = RunRecord.objects.create(
        run=Run.objects.get(public_id=run["id"]),
        project=world.project,
        created_at=Run.objects.get(public_id=run["id"]).started_at,
    )
    _as_kept_by_an_older_detector(
        old,
        transcript=f"ok\nPasswort für LOADER: {LOADER_PW}\nthe build takes 10 minutes\n",
        events=[{"type": "tool_result", "output": f"reporting@client.example / {PHRASE}"}, {"ok": True}],
    )
    clean = RunRecord.objects.create(
        run=old.run, project=world.project, created_at=old.created_at, transcript="nothing secret here", events=None
    )

    dry = _rescrub("--dry-run")
    assert dry["dry_run"] is True
    assert dry["records_examined"] == 2 and dry["records_changed"] == 1 and dry["secrets_replaced"] == 2
    printed = json.dumps(dry)
    assert LOADER_PW not in printed and PHRASE not in printed  # counts, never values
    old.refresh_from_db()
    assert LOADER_PW in old.transcript  # a dry run changes nothing

    real = _rescrub()
    assert real["records_changed"] == 1 and real["secrets_replaced"] == 2
    old.refresh_from_db()
    clean.refresh_from_db()
    assert LOADER_PW not in old.transcript and PHRASE not in json.dumps(old.events)
    assert "the build takes 10 minutes" in old.transcript and old.events[1] == {"ok": True}
    assert clean.transcript == "nothing secret here"

    again = _rescrub()
    assert again["records_changed"] == 0 and again["secrets_replaced"] == 0
