"""Secrets are scrubbed at the one point where free text is saved: the scrubbed model fields.

Every door (the API, the admin, ``QuerySet.update()`` and the bulk calls, a Celery worker, the
memory-sync client) stores the scrubbed text; every free-text field of every model is scrubbed or
named below with the reason it need not be; without a scrubber nothing is saved. Secrets are
built from pieces at run time.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from celery import current_app
from django.apps import apps
from django.db import connection, models, transaction
from django.urls import reverse
from django.utils import timezone

from runs.models import WHY_MAX_CHARS, Run, RunRecord
from stores import scrubbing
from stores.console_checks.detectors.secrets import redact
from stores.models import JiraProject, Memory, Refusal, StandingDecision, Store
from stores.scrubbing import ScrubbedCharField, ScrubbedJSONField, ScrubbedTextField, ScrubberMissing
from stores.services.memories import memory_delete
from tests import factories as f
from tests.runs.conftest import RUNS, aws_key, github_token, password_value, started
from tests.runs.sync_helpers import checkout, once, sync
from tests.schedule.procs import (
    REDIS_SERVER,
    PrivateRedis,
    celery_worker,
    child_env,
    shared_database_url,
    use_broker,
    wait_for,
)
from tests.stores.scrub_probe_tasks import RECORD_TASK

pytestmark = pytest.mark.django_db

STORES = "/api/v1/memory_stores"
SCRUBBED = (ScrubbedCharField, ScrubbedTextField, ScrubbedJSONField)
APPS = ("stores", "runs", "jira_link", "schedule")

# Text fields of the apps' models that are not scrubbed, and why. A new field holding free text an
# agent or a person wrote (a review note, a promotion draft) must be a scrubbed field, or go here
# with its reason.
NOT_SCRUBBED: dict[str, set[str]] = {
    # The client registry: names and client detail typed by operators (the checks keep them out of
    # memory); a secret is no client's name. The history type is simple-history's one letter.
    "stores.Client": {"name", "aliases", "repositories", "datasets", "tables", "distinctive_tables"},
    "stores.HistoricalClient": {
        "name", "aliases", "repositories", "datasets", "tables", "distinctive_tables", "history_type",
    },
    # Names, keys and account ids of the registry.
    "stores.Toolset": {"name"},
    "stores.JiraProject": {"key"},
    "stores.HostedAgent": {"name", "jira_account_id"},
    "stores.Pod": {"name"},
    "stores.ApiToken": {"key_id", "token_hash"},
    "stores.Store": {"public_id", "kind"},
    # A memory's path and content are refused outright when they hold a secret (the checks); the
    # first line and the hash come from the content; the rest are ids and the console's actor records.
    "stores.Memory": {"public_id", "path", "content", "content_sha256", "first_line", "head_version_id", "deleted_by"},
    "stores.HistoricalMemory": {
        "public_id", "path", "content", "content_sha256", "first_line", "head_version_id", "deleted_by",
        "history_type", "version_id", "operation", "actor", "run_public_id", "api_key_id", "version_redacted_by",
        "provenance",
    },
    # A promotion's path and text pass the target store's where and what checks when proposed (and
    # every check when they land); the source path is a memory's; the rest are ids, states, the
    # console's snapshot of the governance rule and a reason code.
    "stores.Promotion": {
        "public_id", "source_version_id", "source_path", "path", "text", "status", "rule", "landed_version_id",
        "failure_code",
    },
    "stores.PromotionDecision": {"kind"},
    # A set-aside text is the losing side of a change the checks allowed (a stale base is the last
    # check; a lost create lost after them), so it holds no secret the checks would refuse.
    "stores.SetAside": {
        "public_id", "path", "text", "text_sha256", "base_sha256", "base_version_id", "lost_to_version_id",
        "created_by", "writer_key", "status", "resolved_by", "resolved_version_id",
    },
    # Who asked, how, the reason code and a keyed fingerprint (never the text).
    "stores.Refusal": {"writer_key", "writer", "run_public_id", "operation", "door", "content_fingerprint", "code"},
    # The search index copies a memory's checked path and content, and who changed it.
    "stores.SearchEntry": {"source", "path", "body", "writer_name", "run_public_id"},
    # Ids, the normalised ticket key, the token's hash; the prompt and the attachments are the console's.
    "runs.Run": {"public_id", "ticket_key", "token_hash", "lesson_prompt", "lesson_memory_version_id", "attachments"},
    # What Jira says of a ticket.
    "jira_link.JiraTicket": {"key", "project_key", "assignee_account_id", "status"},
    # The outbox knows no other app (an import contract): a task's name, its kwargs (ids only) and the
    # broker's error, cut to 255 characters (the Redis client names host and port, never a password).
    "schedule.OutboxMessage": {"task_name", "kwargs", "last_error"},
}
TEXT_FIELDS = (models.CharField, models.TextField, models.JSONField)


def _free_text_fields():
    for model in apps.get_models(include_auto_created=True):
        if model._meta.app_label in APPS:
            for field in model._meta.concrete_fields:
                if isinstance(field, TEXT_FIELDS) and not isinstance(field, models.SlugField):
                    yield model._meta.label, field


def test_every_free_text_field_is_scrubbed_or_named_with_its_reason():
    missing = [f"{label}.{field.name}" for label, field in _free_text_fields()
               if not isinstance(field, SCRUBBED) and field.name not in NOT_SCRUBBED.get(label, set())]
    assert missing == [], f"Free-text fields neither scrubbed nor on NOT_SCRUBBED (with a reason): {missing}"
    scrubbed = {(label, field.name) for label, field in _free_text_fields() if isinstance(field, SCRUBBED)}
    for label, names in NOT_SCRUBBED.items():
        for name in names:
            field = apps.get_model(label)._meta.get_field(name)  # names real fields only
            assert (label, name) not in scrubbed, f"{label}.{name} is scrubbed and on NOT_SCRUBBED"
            assert isinstance(field, TEXT_FIELDS)
    # The ones the issue names, by name, so a rename cannot drop one silently.
    for label, name in [
        ("stores.HistoricalMemory", "history_change_reason"), ("stores.Memory", "delete_reason"),
        ("stores.HistoricalMemory", "delete_reason"), ("stores.Memory", "redacted_by"),
        ("stores.Refusal", "path"), ("stores.Refusal", "message"), ("runs.Run", "lesson_why"),
        ("runs.RunRecord", "transcript"), ("runs.RunRecord", "events"), ("stores.Promotion", "reason"),
        ("stores.PromotionDecision", "reason"),
    ]:
        assert (label, name) in scrubbed, f"{label}.{name}"


class _Counting:
    """The real detector, counting the texts it is given (to show each is scanned once)."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def __call__(self, text: str) -> str:
        self.texts.append(text)
        return redact(text)


@pytest.fixture
def counting():
    previous = scrubbing.installed_scrubber()
    counter = _Counting()
    scrubbing.install_scrubber(counter)
    yield counter
    scrubbing.install_scrubber(previous)


@contextmanager
def no_scrubber() -> Iterator[None]:
    previous = scrubbing.installed_scrubber()
    scrubbing.install_scrubber(None)
    try:
        yield
    finally:
        scrubbing.install_scrubber(previous)


def test_without_a_scrubber_every_save_raises_and_nothing_is_stored(api, world):
    run = Run.objects.get(public_id=started(api, world.agent_token)["id"])
    memory = f.make_memory(world.project_store, "/conventions/a.md", "A.\n")
    with no_scrubber():
        _every_save_raises(world, run, memory)
    assert not RunRecord.objects.exists()
    assert Run.objects.get(pk=run.pk).lesson_why == ""
    assert Memory.objects.get(pk=memory.pk).deleted_at is None


def _every_save_raises(world, run: Run, memory: Memory) -> None:
    text = f"the loader key {aws_key()}"
    with pytest.raises(ScrubberMissing), transaction.atomic():
        RunRecord.objects.create(run=run, project=world.project, created_at=timezone.now(), transcript=text)
    with pytest.raises(ScrubberMissing), transaction.atomic():
        RunRecord.objects.bulk_create([RunRecord(run=run, project=world.project, created_at=timezone.now())])
    with pytest.raises(ScrubberMissing), transaction.atomic():
        Run.objects.filter(pk=run.pk).update(lesson_why=text)
    with pytest.raises(ScrubberMissing), transaction.atomic():
        run.lesson_why = ""  # even an empty text: a missing scrubber shows on the first save
        run.save()
    with pytest.raises(ScrubberMissing), transaction.atomic():
        memory_delete(writer=f.person_writer(world.admin), store=world.project_store, memory_id=memory.public_id,
                      reason=text)


def test_the_api_stores_scrubbed_refusals_reasons_and_store_texts(api, world):
    key = aws_key()
    own = world.agent.store.public_id
    refused = api.as_token(world.agent_token).post(
        f"{STORES}/{own}/memories", {"path": f"/notes/{key}.md", "content": "A note.\n"}, format="json"
    )
    assert refused.status_code == 400, refused.content
    assert key not in refused.content.decode()
    refusal = Refusal.objects.get(store=world.agent.store)
    assert key not in refusal.path and key not in refusal.message
    assert refusal.path == "/notes/[REDACTED:AWS Access Key].md"

    memory = f.make_memory(world.project_store, "/conventions/gone.md", "Gone.\n")
    memory_delete(writer=f.person_writer(world.admin), store=world.project_store, memory_id=memory.public_id)
    # Longer than the 100 characters simple-history's own column held: a reason may be 2,000.
    reason = "Restored: the rotation used " + github_token() + " and " + "the rule still holds. " * 8
    restored = api.as_token(world.admin_token).post(
        f"{STORES}/{world.project_store.public_id}/deleted_memories/{memory.public_id}/restore",
        {"reason": reason}, format="json",
    )
    assert restored.status_code == 200, restored.content
    kept = Memory.objects.get(pk=memory.pk).history.first().history_change_reason
    assert github_token() not in kept and "[REDACTED:GitHub Token]" in kept and kept.endswith("holds. ")

    updated = api.as_token(world.admin_token).post(
        f"{STORES}/{world.practice.public_id}",
        {"description": f"Shared; the bot posts with {github_token()}", "metadata": {"password": password_value()}},
        format="json",
    )
    assert updated.status_code == 200, updated.content
    assert github_token() not in updated.content.decode() and password_value() not in updated.content.decode()
    store = Store.objects.get(pk=world.practice.pk)
    assert "[REDACTED:GitHub Token]" in store.description
    assert password_value() not in json.dumps(store.metadata) and set(store.metadata) == {"password"}


def test_the_admin_stores_scrubbed_governance_and_rulings(client, world):
    client.force_login(world.admin)
    project = world.project
    data = {
        "key": project.key, "client": project.client_id,
        "toolsets": [t.pk for t in project.toolsets.all()],
        "escalation_contacts": [u.pk for u in project.escalation_contacts.all()],
        "governance_template": f"Deploys use {aws_key()}; rulings go to the data lead.",
        "engagement_closed_on": "",
        "standing_decisions-TOTAL_FORMS": "1", "standing_decisions-INITIAL_FORMS": "0",
        "standing_decisions-MIN_NUM_FORMS": "0", "standing_decisions-MAX_NUM_FORMS": "1000",
        "standing_decisions-0-title": "Warehouse login",
        "standing_decisions-0-text": f'The loader logs in with password = "{password_value()}" until May.',
        "_save": "Save",
    }
    response = client.post(reverse("admin:stores_jiraproject_change", args=[project.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    project = JiraProject.objects.get(pk=project.pk)
    assert aws_key() not in project.governance_template
    assert project.governance_template.endswith("rulings go to the data lead.")
    ruling = StandingDecision.objects.get(project=project)
    assert password_value() not in ruling.text and ruling.text.endswith("until May.")


def test_update_and_the_bulk_calls_store_scrubbed_text(api, world):
    run = Run.objects.get(public_id=started(api, world.agent_token)["id"])
    Run.objects.filter(pk=run.pk).update(lesson_why=f"key {aws_key()} rotated")
    assert aws_key() not in Run.objects.get(pk=run.pk).lesson_why

    made = RunRecord.objects.bulk_create([
        RunRecord(run=run, project=world.project, created_at=timezone.now(), transcript=f"used {github_token()}",
                  events=[{"output": f"password: {password_value()}"}]),
    ])
    assert github_token() not in made[0].transcript  # the objects returned hold what the table holds
    record = RunRecord.objects.get(run=run)
    assert github_token() not in record.transcript and password_value() not in json.dumps(record.events)

    record.transcript = f"then {aws_key()}"
    RunRecord.objects.bulk_update([record], ["transcript"])
    assert aws_key() not in RunRecord.objects.get(pk=record.pk).transcript

    RunRecord.objects.filter(pk=record.pk).update(events=[{"config": {"password": password_value()}, "n": 1}])
    events = RunRecord.objects.get(pk=record.pk).events
    assert password_value() not in json.dumps(events) and events[0]["n"] == 1


def test_a_lookup_by_a_scrubbed_text_finds_what_was_saved(world):
    refusal = Refusal.objects.create(
        store=world.project_store, writer_key="k", operation="create", code="secret_detected",
        path=f"/x/{aws_key()}.md", message="refused",
    )
    assert Refusal.objects.get(path=f"/x/{aws_key()}.md") == refusal


def test_a_long_answer_is_cut_after_it_is_scrubbed(api, world):
    run = Run.objects.get(public_id=started(api, world.agent_token)["id"])
    key = aws_key()
    # The key straddles the limit: cut first, its first half would be kept where nothing finds it.
    why = "x " * ((WHY_MAX_CHARS - 10) // 2) + " " + key + " and more."
    Run.objects.filter(pk=run.pk).update(lesson_why=why)
    kept = Run.objects.get(pk=run.pk).lesson_why
    assert len(kept) <= WHY_MAX_CHARS and key[:8] not in kept


def test_a_text_is_scanned_once_however_many_copies_a_save_makes(world, counting):
    memory = f.make_memory(world.project_store, "/conventions/once.md", "Once.\n")
    reason = f"wrong: it named {aws_key()}"
    counting.texts.clear()
    deleted = memory_delete(
        writer=f.person_writer(world.admin), store=world.project_store, memory_id=memory.public_id, reason=reason
    )
    # The memory row, the version's copy of delete_reason and the version's reason: one scan.
    assert counting.texts.count(reason) == 1
    version = deleted.history.first()
    assert aws_key() not in version.history_change_reason and aws_key() not in version.delete_reason
    assert aws_key() not in deleted.delete_reason


def test_a_run_record_is_scanned_once(api, world, counting):
    run = started(api, world.agent_token)
    transcript = "step\n" * 200 + f"then {aws_key()}\n"
    counting.texts.clear()
    response = api.as_token(run["token"]).post(f"{RUNS}/{run['id']}/record", {"transcript": transcript},
                                               format="json")
    assert response.status_code == 200
    assert counting.texts.count(transcript) == 1
    assert aws_key() not in RunRecord.objects.get(run__public_id=run["id"]).transcript


@pytest.mark.live
@pytest.mark.django_db(transaction=True)
def test_the_sync_client_path_stores_scrubbed_text(api, world, live_server, tmp_path):
    run = started(api, world.agent_token, "ACME-1")
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    (folder / f"agent/{aws_key()}.md").write_text("# A note\nNothing secret inside.\n")
    result = once(folder)
    assert [r["reason_code"] for r in result["refused"]] == ["secret_detected"]
    refusal = Refusal.objects.get(store=world.agent.store)
    assert aws_key() not in refusal.path and aws_key() not in refusal.message

    assert not (folder / f"agent/{aws_key()}.md").exists()  # undone in the folder, its reason beside it
    code, body = sync("end", str(folder), "--qa-failed")
    assert code == 0 and body.get("lesson_prompt"), body
    code, body = sync("answer", str(folder), "--nothing-to-record", f"Only rotated {github_token()} today.")
    assert code == 0, body
    why = Run.objects.get(public_id=run["id"]).lesson_why
    assert github_token() not in why and why == "Only rotated [REDACTED:GitHub Token] today."


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_celery_worker_stores_scrubbed_text(api, world, tmp_path):
    if REDIS_SERVER is None or connection.vendor != "postgresql":
        pytest.skip("needs redis-server and PostgreSQL (the worker shares the test database)")
    run = started(api, world.agent_token, "ACME-1")
    transcript = f"Connected.\nexport AWS_KEY={aws_key()}\nDone.\n"
    with PrivateRedis(tmp_path) as redis, use_broker(redis.url):
        env = child_env(broker_url=redis.url, database_url=shared_database_url())
        with celery_worker(env, tmp_path, include="tests.stores.scrub_probe_tasks") as worker:
            current_app.send_task(RECORD_TASK, kwargs={"run_id": run["id"], "transcript": transcript})
            wait_for(lambda: RunRecord.objects.filter(run__public_id=run["id"]).exists(), 60,
                     what=lambda: f"the worker's record\n{worker.log()[-2000:]}")
    kept = RunRecord.objects.get(run__public_id=run["id"]).transcript
    assert aws_key() not in kept and kept == "Connected.\nexport AWS_KEY=[REDACTED:AWS Access Key]\nDone.\n"
