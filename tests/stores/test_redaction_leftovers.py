"""What Redact all versions leaves: no text and no unkeyed hash of it, anywhere; then a VACUUM.

The copies are found three ways on PostgreSQL: in a whole-database ``pg_dump``, by an SQL query
over every text column of every table (values read back, so TOASTed ones too), and by the list of
copies itself, which must name every model field that can hold memory text.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import time

import pytest
from django.apps import apps
from django.contrib.postgres.fields import ArrayField, HStoreField
from django.contrib.postgres.search import SearchVectorField
from django.db import connection, models
from django.utils import timezone

from reviews.services.review import start_review
from runs.models import Run, RunRecord
from schedule.models import OutboxMessage
from schedule.outbox import outbox_sweep
from stores.errors import PathConflict, Refused
from stores.models import Memory, Refusal, SetAside, hash_token
from stores.services.memories import memory_create, memory_update
from stores.services.promotions import promotion_propose, promotion_refuse
from stores.services.redaction import REACH, VACUUM_TASK, reach_tables
from tests import factories as f
from tests.console.conftest import make_set_aside
from tests.console.test_redaction_everywhere import dump_database
from tests.schedule.procs import use_broker
from tests.schedule.records import EagerTasks

# Text fields of models that hold no memory text, and why. A new field holding memory text (a
# search index, a review proposal, a promotion draft) goes on REACH in the redaction service.
NOT_MEMORY_TEXT: dict[str, set[str]] = {
    # The admin shows memories, versions, set-asides and refusals read-only: no entry names one.
    "admin.LogEntry": {"object_id", "object_repr", "change_message"},
    "auth.Permission": {"name", "codename"},
    "auth.Group": {"name"},
    "auth.User": {"last_name", "username", "email", "first_name", "password"},
    "contenttypes.ContentType": {"app_label", "model"},
    # Signed-in sessions; a one-time console message goes in a cookie and is gone once shown.
    "sessions.Session": {"session_key", "session_data"},
    "guardian.UserObjectPermission": {"object_pk"},
    "guardian.GroupObjectPermission": {"object_pk"},
    "axes.AccessFailureLog": {"path_info", "username", "http_accept", "user_agent"},
    "axes.AccessAttempt": {"path_info", "post_data", "username", "get_data", "http_accept", "user_agent"},
    "axes.AccessLog": {"path_info", "username", "http_accept", "user_agent", "session_hash"},
    "django_celery_beat.SolarSchedule": {"event"},
    "django_celery_beat.IntervalSchedule": {"period"},
    "django_celery_beat.CrontabSchedule": {"day_of_month", "hour", "month_of_year", "minute", "day_of_week"},
    "django_celery_beat.PeriodicTask": {
        "exchange", "queue", "name", "routing_key", "description", "kwargs", "task", "headers", "args",
    },
    # The registry and people's rulings: written by people, never copied from memory.
    "stores.HistoricalClient": {
        "history_type", "name", "distinctive_tables", "tables", "aliases", "datasets", "repositories",
        "history_change_reason",
    },
    "stores.Client": {"name", "distinctive_tables", "tables", "aliases", "datasets", "repositories"},
    "stores.Toolset": {"name"},
    "stores.JiraProject": {"key", "governance_template"},
    "stores.StandingDecision": {"text", "title"},
    "stores.HostedAgent": {"name", "jira_account_id"},
    "stores.Pod": {"name"},
    "stores.ApiToken": {"key_id", "token_hash"},
    "stores.Store": {"name", "description", "public_id", "metadata", "kind"},
    # Ids, actors and the operation; redacted_by keeps only a keyed fingerprint of the path.
    "stores.HistoricalMemory": {
        "head_version_id", "history_type", "operation", "version_id", "redacted_by", "api_key_id",
        "version_redacted_by", "actor", "public_id", "run_public_id", "deleted_by", "provenance",
    },
    "stores.Memory": {"head_version_id", "redacted_by", "public_id", "deleted_by"},
    "stores.SetAside": {
        "created_by", "status", "resolved_by", "writer_key", "base_version_id", "public_id", "lost_to_version_id",
        "resolved_version_id",
    },
    # content_fingerprint is keyed (HMAC), never the text or its plain hash.
    "stores.Refusal": {"operation", "content_fingerprint", "writer_key", "writer", "door", "code", "run_public_id"},
    # The lesson prompt is the console's; lesson_why is the agent's one-line reason for recording nothing.
    "runs.Run": {
        "lesson_memory_version_id", "ticket_key", "attachments", "lesson_why", "host", "token_hash", "public_id",
        "lesson_prompt",
    },
    "jira_link.JiraTicket": {"status", "assignee_account_id", "project_key", "key"},
    # The search index's document: what kind of row it is, and who changed it last (path and body are on REACH).
    "stores.SearchEntry": {"source", "writer_name", "run_public_id"},
    # A promotion's ids, status, the rule it was opened under and a refused landing's code
    # (its text, paths and reasons are on REACH).
    "stores.Promotion": {"public_id", "source_version_id", "status", "rule", "landed_version_id", "failure_code"},
    "stores.PromotionDecision": {"kind"},
    # Follow-up tasks carry ids only.
    "schedule.OutboxMessage": {"last_error", "kwargs", "task_name"},
    # A review: ids, states and the model's name; its message is the review's own words (what went
    # wrong, the model pass's notices), never a quote of a note. Its proposals' texts are on REACH.
    "reviews.Review": {"public_id", "trigger", "status", "model", "error_message"},
    "reviews.ReviewProposal": {"public_id", "kind", "memory_ids", "status", "refusal_code", "version_ids"},
}
# Every kind of field that can hold text: a search index's tsvector holds its lexemes.
TEXT_FIELDS = (
    models.CharField, models.TextField, models.JSONField, models.BinaryField, SearchVectorField, ArrayField,
    HStoreField,
)


def test_every_model_field_that_can_hold_memory_text_is_on_the_redaction_list():
    reached = {(reach.holder, name) for reach in REACH for name in reach.fields}
    missing = []
    for model in apps.get_models(include_auto_created=True):
        label = model._meta.label
        for field in model._meta.concrete_fields:
            if not isinstance(field, TEXT_FIELDS):
                continue
            if (label, field.name) not in reached and field.name not in NOT_MEMORY_TEXT.get(label, set()):
                missing.append(f"{label}.{field.name}")
    assert missing == [], (
        "These fields are neither on the redaction service's REACH list nor known to hold no memory "
        f"text: {missing}"
    )
    # Both lists name real fields only, and no field is on both.
    for holder, name in reached:
        if not holder.startswith("cache:"):
            apps.get_model(holder)._meta.get_field(name)
            assert name not in NOT_MEMORY_TEXT.get(holder, set()), f"{holder}.{name} is on both lists"
    for label, names in NOT_MEMORY_TEXT.items():
        for name in names:
            apps.get_model(label)._meta.get_field(name)


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def text_columns() -> list[tuple[str, str]]:
    """Every column of every table in the database that can hold text (JSON, arrays and tsvector included)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() "
            "AND data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea', 'tsvector', 'ARRAY') "
            "ORDER BY table_name, column_name"
        )
        return list(cursor.fetchall())


def columns_holding(needles: list[str]) -> list[str]:
    """The table.column values that hold any of ``needles``, by SQL over every text column."""
    found = []
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for table, column in text_columns():
            value = f"encode({quote(column)}, 'escape')" if _is_bytea(cursor, table, column) else f"{quote(column)}::text"
            where = " OR ".join(f"strpos({value}, %s) > 0" for _ in needles)
            cursor.execute(f"SELECT count(*) FROM {quote(table)} WHERE {where}", needles)
            if cursor.fetchone()[0]:
                found.append(f"{table}.{column}")
    return found


def _is_bytea(cursor, table: str, column: str) -> bool:
    cursor.execute(
        "SELECT data_type FROM information_schema.columns WHERE table_schema = current_schema() "
        "AND table_name = %s AND column_name = %s",
        [table, column],
    )
    return cursor.fetchone()[0] == "bytea"


def toast_chunks(table: str) -> int:
    """How many chunks the table's TOAST table holds (its long values, stored out of line)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltoastrelid::regclass::text FROM pg_class WHERE relname = %s", [table])
        toast = cursor.fetchone()[0]
        cursor.execute(f"SELECT count(*) FROM {toast}")
        return cursor.fetchone()[0]


def last_vacuums() -> dict[str, object]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT relname, last_vacuum FROM pg_stat_user_tables WHERE relname = ANY(%s)", [reach_tables()]
        )
        return dict(cursor.fetchall())


def _scene(world) -> tuple[Memory, list[str], list[str]]:
    """A memory whose texts are copied everywhere a copy can live; its marks and every text's hash."""
    mark = "zqleft" + secrets.token_hex(6)
    store = world.project_store
    path = f"/issues/{mark}-export.md"
    # A long note, stored out of line in TOAST, so the checks below read TOASTed values back.
    rng = random.Random(mark)
    long_note = " ".join(
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 8))) for _ in range(500)
    )
    memory = f.make_memory(store, path, f"The {mark} export lands in raw.\n\n{long_note}\n")
    agent = f.agent_writer(world.agent)
    # A set-aside from a stale update, and one from a create that lost the path to this memory.
    make_set_aside(world, memory, f"The {mark} export lands in raw at 02:00.\n")
    lost = f"Seen too: the {mark} export is late on Mondays.\n"
    with pytest.raises(PathConflict):
        memory_create(writer=agent, store=store, path=path, content=lost)
    # A refused change that quoted the text (its refusal keeps the path and a fingerprint of the text).
    with pytest.raises(Refused):
        memory_update(writer=f.agent_writer(world.outsider), store=store, memory_id=memory.public_id,
                      content=f"The {mark} export lands in raw.\n")
    # A promotion of it, refused (its text and path are copies too).
    promotion = promotion_propose(user=world.contact, store=store, memory_id=memory.public_id,
                                  target_store_id=world.practice.public_id, path=f"/lessons/{mark}.md",
                                  text=f"The {mark} export lands in raw.\n", reason="General.")
    promotion_refuse(user=world.admin, promotion_id=promotion.public_id, reason="Too specific.")
    run = Run.objects.create(agent=world.agent, project=world.project, ticket_key="ACME-9",
                             token_hash=hash_token(secrets.token_hex(16)))
    RunRecord.objects.create(run=run, project=world.project, created_at=timezone.now(),
                             transcript=f"read {path}\nThe {mark} export lands in raw.\n")
    # A review whose model (the stand-in) proposes a rewrite of it: the proposal holds its text,
    # path and the hash of the version it was computed on.
    review = start_review(store=store)
    assert any(memory.public_id in p.memory_ids for p in review.proposals.filter(kind="rewrite"))
    memory.refresh_from_db()
    texts = set(memory.history.values_list("content", flat=True)) | set(
        SetAside.objects.filter(memory=memory).values_list("text", flat=True)
    ) | {path}
    assert lost in texts and len(texts) >= 5
    hashes = sorted({sha(t) for t in texts} | {sha(t.strip()) for t in texts})
    # Before the redaction the copies are there, hashes included (the test would see them).
    before = columns_holding([mark, *hashes])
    assert {"stores_memory.content", "stores_setaside.text_sha256", "stores_setaside.base_sha256",
            "stores_promotion.text", "stores_promotion.path",
            "reviews_reviewproposal.proposed_text", "reviews_reviewproposal.base"} <= set(before)
    assert toast_chunks("stores_memory") > 0 and toast_chunks("stores_historicalmemory") > 0
    return memory, [mark], hashes


def _delete_and_redact(client, world, memory: Memory) -> None:
    store = world.project_store
    client.force_login(world.contact)
    response = client.post(f"/console/stores/{store.public_id}/memories/{memory.public_id}/delete/",
                           {"reason": "holds a customer's name"})
    assert response.status_code == 302
    response = client.post(f"/console/stores/{store.public_id}/deleted/{memory.public_id}/redact/",
                           {"confirm": "yes", "reason": "a customer's name", "confirm_path": memory.path})
    assert response.status_code == 302


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_after_redaction_no_text_and_no_unkeyed_hash_remain_and_the_tables_are_vacuumed(client, world, messages_standin):
    memory, marks, hashes = _scene(world)
    with connection.cursor() as cursor:
        cursor.execute("SELECT now()")
        started = cursor.fetchone()[0]
    with EagerTasks():  # the follow-up job runs here, after the redaction's commit, as without a broker
        _delete_and_redact(client, world, memory)

    assert Memory.objects.get(pk=memory.pk).redacted_at is not None
    dump = dump_database()
    for needle in marks + hashes:
        assert needle not in dump, f"{needle} is still in the database dump"
    assert columns_holding(marks + hashes) == []
    # The set-asides stay as rows (one per writer, memory, base and text) with keyed fingerprints.
    kept = list(SetAside.objects.filter(memory=memory).values_list("text", "text_sha256", "base_sha256"))
    assert len(kept) == 2 and all(text == "" and len(text_fp) == 64 for text, text_fp, _ in kept)
    assert Refusal.objects.filter(store=world.project_store, code="not_in_pod_or_assigned").get().content_fingerprint

    # The VACUUM job ran on every table the redaction touched, after it.
    deadline = time.time() + 10
    while time.time() < deadline:  # the statistics reach other sessions within a moment
        vacuumed = last_vacuums()
        if all(vacuumed.get(t) and vacuumed[t] >= started for t in reach_tables()):
            break
        time.sleep(0.2)
    assert {t for t in reach_tables() if vacuumed.get(t) and vacuumed[t] >= started} == set(reach_tables()), vacuumed
    assert not OutboxMessage.objects.filter(task_name=VACUUM_TASK).exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_vacuum_waits_in_the_outbox_while_the_broker_is_down_and_runs_once_it_is_sent(client, world):
    """A redaction never waits on its VACUUM: with no broker the job waits in the outbox."""
    memory = f.make_memory(world.project_store, "/issues/outbox.md", "A note to redact.\n")
    with use_broker("redis://127.0.0.1:9/0"):  # nothing listens there
        _delete_and_redact(client, world, memory)
    assert Memory.objects.get(pk=memory.pk).redacted_at is not None
    waiting = OutboxMessage.objects.get(task_name=VACUUM_TASK)
    assert sorted(waiting.kwargs["tables"]) == reach_tables() and waiting.failures == 1
    with connection.cursor() as cursor:
        cursor.execute("SELECT now()")
        started = cursor.fetchone()[0]
    with EagerTasks():
        assert outbox_sweep(grace_seconds=0).sent == 1
    vacuumed = last_vacuums()
    assert all(vacuumed.get(t) and vacuumed[t] >= started for t in reach_tables()), vacuumed
