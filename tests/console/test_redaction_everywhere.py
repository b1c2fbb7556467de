"""After Redact all versions, the memory's text is in no table of the database (checked on a dump of
the whole database, not with the ORM), in no cache and in no queued task."""

from __future__ import annotations

import os
import secrets
import subprocess
from dataclasses import dataclass

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from runs.models import Run, RunRecord
from stores.errors import Refused
from stores.models import Memory, Refusal, SetAside, hash_token
from stores.services.memories import memory_update
from tests import factories as f

from .conftest import make_set_aside


def dump_database() -> str:
    """The whole database as SQL text: `pg_dump` on PostgreSQL, `iterdump` on SQLite."""
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        return "\n".join(connection.connection.iterdump())
    if connection.vendor == "postgresql":
        db = connection.settings_dict
        env = {**os.environ}
        if db.get("PASSWORD"):
            env["PGPASSWORD"] = str(db["PASSWORD"])
        command = ["pg_dump", "--no-owner", "--dbname", db["NAME"]]
        if db.get("HOST"):
            command += ["--host", str(db["HOST"])]
        if db.get("PORT"):
            command += ["--port", str(db["PORT"])]
        if db.get("USER"):
            command += ["--username", str(db["USER"])]
        result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, f"pg_dump failed: {result.stderr}"
        return result.stdout
    pytest.fail(f"no whole-database dump for {connection.vendor}")


@dataclass
class Marked:
    memory: Memory
    set_aside: SetAside
    refusal: Refusal
    record: RunRecord
    text_mark: str
    path_mark: str
    reason_mark: str

    @property
    def marks(self) -> list[str]:
        return [self.text_mark, self.path_mark, self.reason_mark]


@pytest.fixture
def marked(world) -> Marked:
    """A memory whose text, path and deletion reason carry distinctive markers, copied everywhere a
    copy can live: versions, a set-aside text, a refusal, a run record and the store's cached snapshot."""
    text_mark = "zqtext" + secrets.token_hex(6)
    path_mark = "zqpath" + secrets.token_hex(6)
    reason_mark = "zqwhy" + secrets.token_hex(6)
    store = world.project_store
    line = f"The {text_mark} export lands in the raw schema every night."
    memory = f.make_memory(store, f"/issues/{path_mark}.md", f"# Export {text_mark}\n\n{line}\n")
    set_aside = make_set_aside(world, memory, f"# Export {text_mark}\n\n{line}\nIt runs at 02:00 ({text_mark}).\n")
    memory.refresh_from_db()
    # An agent outside the project's pods is refused; the refusal keeps the path it aimed at.
    with pytest.raises(Refused):
        memory_update(
            writer=f.agent_writer(world.outsider), store=store, memory_id=memory.public_id, content="Something else.\n"
        )
    refusal = Refusal.objects.get(store=store, path=memory.path, code="not_in_pod_or_assigned")
    run = Run.objects.create(
        agent=world.agent, project=world.project, ticket_key="ACME-7", token_hash=hash_token(secrets.token_hex(16))
    )
    record = RunRecord.objects.create(
        run=run,
        project=world.project,
        created_at=timezone.now(),
        transcript=f"read {memory.path}\n{line}\nwrote nothing",
        events=[{"tool": "read", "path": memory.path, "output": line}],
    )
    cache.set(f"store-snapshot:{store.pk}", [{"path": memory.path, "content": memory.content}], 300)
    return Marked(memory, set_aside, refusal, record, text_mark, path_mark, reason_mark)


def _delete_and_redact(client, world, marked: Marked, *, before_redaction=None) -> None:
    store, memory = world.project_store, marked.memory
    client.force_login(world.contact)
    response = client.post(
        f"/console/stores/{store.public_id}/memories/{memory.public_id}/delete/",
        {"reason": f"holds a customer name ({marked.reason_mark})"},
    )
    assert response.status_code == 302
    if before_redaction is not None:
        before_redaction()
    response = client.post(f"/console/stores/{store.public_id}/deleted/{memory.public_id}/redact/",
                           {"confirm": "yes", "reason": "a customer name", "confirm_path": memory.path})
    assert response.status_code == 302


@pytest.mark.django_db(transaction=True)
def test_after_redaction_the_text_is_in_no_table_of_a_whole_database_dump(client, world, marked):
    def dump_holds_the_marks_before_redaction():
        dump = dump_database()
        # The dump sees the committed rows, so the test would catch a copy left behind.
        for mark in marked.marks:
            assert mark in dump

    _delete_and_redact(client, world, marked, before_redaction=dump_holds_the_marks_before_redaction)

    dump = dump_database()
    for mark in marked.marks:
        assert mark not in dump, f"{mark} is still in the database dump"
    # Who redacted it and when stays on record, and the run record's quote says it was redacted.
    memory = Memory.objects.get(pk=marked.memory.pk)
    assert memory.redacted_at is not None and memory.redacted_by["name"] == "carol"
    assert memory.public_id in dump
    record = RunRecord.objects.get(pk=marked.record.pk)
    assert "[REDACTED:memory]" in record.transcript
    assert SetAside.objects.get(pk=marked.set_aside.pk).text == ""
    assert marked.path_mark not in Refusal.objects.get(pk=marked.refusal.pk).path
    assert cache.get(f"store-snapshot:{world.project_store.pk}") is None


def _redis_holds(client, mark: str) -> list[str]:
    """The keys of the Redis database whose value holds ``mark``, whatever their type."""
    found = []
    needle = mark.encode()
    for key in client.scan_iter(count=1000):
        kind = client.type(key)
        if kind == b"string":
            values = [client.get(key) or b""]
        elif kind == b"list":
            values = client.lrange(key, 0, -1)
        elif kind == b"hash":
            values = [k + b"=" + v for k, v in client.hgetall(key).items()]
        elif kind == b"set":
            values = list(client.smembers(key))
        elif kind == b"zset":
            values = client.zrange(key, 0, -1)
        else:
            values = []
        if any(needle in value for value in values):
            found.append(key.decode(errors="replace"))
    return found


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_after_redaction_the_text_is_in_no_redis_cache_or_queue(client, world, marked):
    """With Redis as cache and broker, no key (cache entry or queued task) holds the text afterwards."""
    assert "redis" in settings.CACHES["default"]["BACKEND"].lower(), "with REDIS_URL set, the cache is Redis"
    server = redis.Redis.from_url(os.environ["REDIS_URL"])
    assert _redis_holds(server, marked.text_mark), "the cached snapshot should be in Redis before redaction"
    _delete_and_redact(client, world, marked)
    for mark in marked.marks:
        assert _redis_holds(server, mark) == []
