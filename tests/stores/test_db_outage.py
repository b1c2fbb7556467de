"""A database outage answers 503 ``overloaded_error`` with ``retry-after``, at once, and the official
SDK's retries succeed once the database is back.

The console runs under gunicorn with DATABASE_URL pointing at a TCP proxy in front of PostgreSQL;
the test cuts the proxy (every connection dropped, new ones refused) and restores it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import anthropic
import httpx2 as httpx  # the HTTP client the SDK itself uses
import pytest
from django.db import connection

from stores.models import Memory
from tests.schedule.procs import free_port, wait_for
from tests.tcp_proxy import TcpProxy

pytestmark = [pytest.mark.postgres, pytest.mark.live, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))
RETRY_AFTER = 1


@pytest.fixture
def console(world, tmp_path):
    """The console under gunicorn, on this test's database through a proxy; yields (proxy, url)."""
    s = connection.settings_dict
    proxy = TcpProxy(s["HOST"] or "127.0.0.1", int(s["PORT"] or 5432))
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(
        DATABASE_URL=f"postgres://{auth}@127.0.0.1:{proxy.port}/{s['NAME']}",
        DJANGO_SETTINGS_MODULE="memory_console.settings_test",
        DATABASE_RETRY_AFTER_SECONDS=str(RETRY_AFTER),
        DB_CONNECT_TIMEOUT="3",
        PYTHONPATH=str(ROOT),
    )
    log = tmp_path / "gunicorn.log"
    proc = subprocess.Popen(
        [GUNICORN, "memory_console.wsgi:application", "--bind", f"127.0.0.1:{port}", "--workers", "1",
         "--threads", "4", "--timeout", "60", "--error-logfile", str(log)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"

    def answers() -> bool:
        try:
            return httpx.get(f"{url}/api/v1/memory_stores", timeout=2).status_code == 401
        except httpx.HTTPError:
            return False

    try:
        wait_for(answers, 60, what=lambda: f"gunicorn to answer:\n{log.read_text(errors='replace')[-2000:]}")
        yield proxy, url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        proxy.close()


def test_an_outage_answers_503_with_retry_after_and_the_sdk_retries_through_it(console, world):
    proxy, url = console
    sid = world.project_store.public_id
    headers = {"authorization": f"Bearer {world.agent_token}"}
    assert httpx.get(f"{url}/api/v1/memory_stores", headers=headers, timeout=15).status_code == 200

    proxy.cut()
    # No hang: the answer comes while the database is away, within the client's timeout.
    for method, path, body in (
        ("GET", "/api/v1/memory_stores", None),
        ("POST", f"/api/v1/memory_stores/{sid}/memories", {"path": "/issues/down.md", "content": "x\n"}),
    ):
        response = httpx.request(method, url + path, headers=headers, json=body, timeout=15)
        assert response.status_code == 503, response.text
        assert response.headers["retry-after"] == str(RETRY_AFTER)
        payload = response.json()
        assert payload["type"] == "error" and payload["error"]["type"] == "overloaded_error"
        assert payload["request_id"].startswith("req_") and response.headers["request-id"] == payload["request_id"]

    # The SDK, with retries, started during the outage: it backs off on the 503s and gets through.
    statuses: list[int] = []
    http = httpx.Client(event_hooks={"response": [lambda r: statuses.append(r.status_code)]}, timeout=15)
    sdk = anthropic.Anthropic(api_key=world.agent_token, base_url=f"{url}/api", max_retries=6, http_client=http)
    outcome: dict[str, object] = {}

    def write() -> None:
        try:
            outcome["memory"] = sdk.beta.memory_stores.memories.create(
                sid, path="/issues/written-during-outage.md", content="Written while the database was away.\n"
            )
        except Exception as exc:  # reported by the assertion below
            outcome["error"] = exc

    writer = threading.Thread(target=write)
    writer.start()
    wait_for(lambda: 503 in statuses, 30, what="the SDK to meet a 503")
    proxy.restore()
    writer.join(timeout=90)
    assert not writer.is_alive()
    assert "error" not in outcome, outcome.get("error")
    assert statuses[0] == 503 and statuses[-1] == 200, statuses
    made = outcome["memory"]
    assert Memory.objects.filter(public_id=made.id, path="/issues/written-during-outage.md").count() == 1
    # And reads are back too.
    assert sdk.beta.memory_stores.memories.retrieve(made.id, memory_store_id=sid).content == (
        "Written while the database was away.\n"
    )


def test_a_database_that_hangs_answers_503_within_the_connect_timeout(console, world):
    """A host that accepts and never answers: the console gives up after DB_CONNECT_TIMEOUT, not never."""
    proxy, url = console
    headers = {"authorization": f"Bearer {world.agent_token}"}
    proxy.stall()
    response = httpx.get(f"{url}/api/v1/memory_stores", headers=headers, timeout=20)
    assert response.status_code == 503 and response.headers["retry-after"] == str(RETRY_AFTER)
    assert response.json()["error"]["type"] == "overloaded_error"
    proxy.restore()
    assert httpx.get(f"{url}/api/v1/memory_stores", headers=headers, timeout=20).status_code == 200
