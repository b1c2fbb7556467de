"""The run's record: kept with every secret redacted, read by admins and the agent itself, and
scrubbed of a redacted memory's text."""

from __future__ import annotations

import json

import pytest
from django.db.models.signals import post_delete, pre_delete

from runs.models import RunRecord
from stores.services.memories import memory_delete
from stores.services.redaction import memory_redact_all_versions
from tests import factories as f

from .conftest import RUNS, aws_key, github_token, password_value

pytestmark = pytest.mark.django_db


def test_a_transcript_is_kept_with_every_secret_redacted(api, world, run_factory):
    run = run_factory()
    transcript = (
        "Connected to the warehouse.\n"
        f"Found the key {aws_key()} in the old config.\n"
        f'password = "{password_value()}"\n'
        f"then used {github_token()} to clone.\n"
    )
    response = api.as_token(run["token"]).post(f"{RUNS}/{run['id']}/record", {"transcript": transcript}, format="json")
    assert response.status_code == 200
    stored = RunRecord.objects.get(run__public_id=run["id"])
    for secret in (aws_key(), password_value(), github_token()):
        assert secret not in stored.transcript
        assert secret not in json.dumps(response.json())
    assert "[REDACTED:AWS Access Key]" in stored.transcript
    assert "[REDACTED:GitHub Token]" in stored.transcript
    assert "Connected to the warehouse." in stored.transcript
    assert stored.project == world.project


def test_events_are_kept_with_every_secret_redacted(api, world, run_factory):
    run = run_factory()
    events = [
        {"type": "tool_call", "tool": "bash", "input": {"command": f"export AWS_KEY={aws_key()}"}},
        {"type": "tool_result", "output": f"cloned with {github_token()}\nok"},
        {"type": "config", "settings": {"password": password_value(), "region": "eu"}},
        {"type": "note", "attempt": 2, "ok": True},
    ]
    response = api.as_token(world.agent_token).post(f"{RUNS}/{run['id']}/record", {"events": events}, format="json")
    assert response.status_code == 200
    stored = RunRecord.objects.get(run__public_id=run["id"]).events
    dumped = json.dumps(stored)
    for secret in (aws_key(), github_token(), password_value()):
        assert secret not in dumped
    assert stored[3] == {"type": "note", "attempt": 2, "ok": True}
    assert stored[2]["settings"]["region"] == "eu"
    assert "[REDACTED:" in stored[0]["input"]["command"] and stored[1]["output"].endswith("\nok")


@pytest.mark.parametrize("body", [{}, {"transcript": 3}, {"events": {"a": 1}}])
def test_a_record_needs_a_transcript_or_events(api, world, run_factory, body):
    run = run_factory()
    response = api.as_token(run["token"]).post(f"{RUNS}/{run['id']}/record", body, format="json")
    assert response.status_code == 400
    assert not RunRecord.objects.exists()


def test_admins_and_the_agent_read_the_record_nobody_else(api, world, run_factory):
    run = run_factory()
    api.as_token(run["token"]).post(f"{RUNS}/{run['id']}/record", {"transcript": "part one\n"}, format="json")
    api.as_token(run["token"]).post(f"{RUNS}/{run['id']}/record", {"transcript": "part two\n"}, format="json")
    for token, status in [(world.admin_token, 200), (world.agent_token, 200), (run["token"], 200),
                          (world.contact_token, 404), (world.outsider_token, 404), (None, 401)]:
        response = api.as_token(token).get(f"{RUNS}/{run['id']}/record")
        assert response.status_code == status
    body = api.as_token(world.admin_token).get(f"{RUNS}/{run['id']}/record").json()
    assert [r["transcript"] for r in body["data"]] == ["part one\n", "part two\n"]


def test_run_records_carry_no_history_and_no_delete_signals():
    assert not hasattr(RunRecord, "history")
    assert not pre_delete.has_listeners(RunRecord) and not post_delete.has_listeners(RunRecord)


def test_redacting_a_memory_scrubs_its_quotes_from_run_records(api, world, run_factory):
    text = "The finance export lives in bucket acme-fin-exports-7781.\nAsk Jo Bloggs on 07700 900123 for access.\n"
    memory = f.make_memory(world.project_store, "/data/finance-export.md", text)
    run = run_factory()
    quoting = (
        "Read /data/finance-export.md:\n" + text
        + "Later I only repeated: Ask Jo Bloggs on 07700 900123 for access.\n"
    )
    api.as_token(run["token"]).post(f"{RUNS}/{run['id']}/record", {"transcript": quoting}, format="json")
    api.as_token(run["token"]).post(
        f"{RUNS}/{run['id']}/record",
        {"events": [{"type": "read", "content": text}, {"type": "note", "text": "nothing to see"}]}, format="json",
    )
    # A record of another project quoting the same words is not this memory's copy and stays.
    other_agent = f.make_agent("cyd")
    f.make_pod(agents=[other_agent], projects=[world.other_project])
    other = api.as_token(f.agent_token(other_agent)).post(RUNS, {"ticket_key": "OTHR-1"}, format="json").json()
    api.as_token(other["token"]).post(f"{RUNS}/{other['id']}/record", {"transcript": text}, format="json")

    admin = f.person_writer(world.admin)
    memory_delete(writer=admin, store=world.project_store, memory_id=memory.public_id, reason="personal data")
    memory_redact_all_versions(writer=admin, store=world.project_store, memory_id=memory.public_id)

    mine = list(RunRecord.objects.filter(run__public_id=run["id"]).order_by("pk"))
    assert "Jo Bloggs" not in mine[0].transcript and "acme-fin-exports" not in mine[0].transcript
    assert mine[0].transcript.count("[REDACTED:memory]") >= 2
    assert mine[0].transcript.startswith("Read [REDACTED:memory]:")  # the path is redacted too
    assert "Jo Bloggs" not in json.dumps(mine[1].events) and mine[1].events[1]["text"] == "nothing to see"
    assert RunRecord.objects.get(run__public_id=other["id"]).transcript == text
