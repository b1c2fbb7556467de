"""Per-token throttling of the agent API: writes and reads budgeted apart, 429 with retry-after.

The suite runs with budgets too high to reach (settings_test); these tests set low ones.
"""

from __future__ import annotations

import os
import subprocess
import sys

import anthropic
import pytest
from django.conf import settings as django_settings

from stores.api.authentication import writer_for_token
from stores.models import Memory

BASE = "/api/v1/memory_stores"


@pytest.fixture
def budgets(settings):
    """Set the per-token budgets for one test, e.g. budgets("3/min", "5/min")."""

    def set_rates(writes: str, reads: str) -> None:
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {"token_writes": writes, "token_reads": reads},
        }

    return set_rates


def write(api, token: str, store_id: str, n: int):
    return api.as_token(token).post(f"{BASE}/{store_id}/memories", {"path": f"/t/{n}.md", "content": "x"}, format="json")


def test_a_token_over_its_write_budget_gets_429_rate_limit_error_with_retry_after(api, world, budgets):
    budgets("3/min", "1000/min")
    sid = world.agent.store.public_id
    answers = [write(api, world.agent_token, sid, n) for n in range(7)]
    # Seven calls in a moment: at most one minute boundary passes, so at most 3 + 3 get through.
    assert [r.status_code for r in answers[:3]] == [200, 200, 200]
    throttled = [r for r in answers if r.status_code == 429]
    assert throttled and all(r.status_code in (200, 429) for r in answers)
    body = throttled[0].json()
    assert body["type"] == "error" and body["error"]["type"] == "rate_limit_error"
    assert "writes" in body["error"]["message"] and body["request_id"]
    assert 1 <= int(throttled[0]["retry-after"]) <= 60
    # A refused call changed nothing.
    assert Memory.objects.filter(store=world.agent.store).count() == 7 - len(throttled)

    # Reads have their own budget, and another token its own.
    assert api.as_token(world.agent_token).get(f"{BASE}/{sid}/memories").status_code == 200
    other = world.outsider.store.public_id
    assert write(api, world.outsider_token, other, 0).status_code == 200


def test_reads_are_budgeted_apart_from_writes(api, world, budgets):
    budgets("1000/min", "2/min")
    sid = world.agent.store.public_id
    codes = [api.as_token(world.agent_token).get(f"{BASE}/{sid}").status_code for _ in range(5)]
    assert codes[:2] == [200, 200] and 429 in codes
    assert write(api, world.agent_token, sid, 0).status_code == 200


def test_unauthenticated_calls_answer_401_not_429(api, world, budgets):
    budgets("1/min", "1/min")
    for _ in range(3):
        assert api.as_token(None).get(BASE).status_code == 401


@pytest.mark.live
@pytest.mark.django_db(transaction=True)
def test_the_sdk_reads_the_429_and_waits_for_retry_after(live_server, world, budgets):
    budgets("2/s", "1000/s")  # a one-second window, so retry-after is 1 and the SDK's wait is short
    sid = world.agent.store.public_id
    url = f"{live_server.url}/api"
    # Each client is closed at the end, so no kept-alive connection outlives the live server.
    with anthropic.Anthropic(api_key=world.agent_token, base_url=url, max_retries=0) as once:
        with pytest.raises(anthropic.RateLimitError) as refused:
            for n in range(5):  # five calls in well under two seconds: 2 + 2 at most get through
                once.beta.memory_stores.memories.create(sid, path=f"/sdk/{n}.md", content="x")
    assert refused.value.status_code == 429
    assert refused.value.type == "rate_limit_error"
    assert refused.value.response.headers["retry-after"] == "1"
    with anthropic.Anthropic(api_key=world.agent_token, base_url=url, max_retries=3) as patient:
        made = [patient.beta.memory_stores.memories.create(sid, path=f"/sdk/p{n}.md", content="x") for n in range(4)]
    assert len({m.id for m in made}) == 4


@pytest.mark.redis
def test_the_count_lives_in_redis_where_every_instance_reads_it(api, world, budgets):
    import redis

    assert "RedisCache" in django_settings.CACHES["default"]["BACKEND"]
    budgets("2/min", "1000/min")
    sid = world.agent.store.public_id
    for n in range(3):
        write(api, world.agent_token, sid, n)
    key_id = writer_for_token(world.agent_token).api_key_id
    other_instance = redis.Redis.from_url(os.environ["REDIS_URL"])
    keys = other_instance.keys(f"*api-throttle:token_writes:key:{key_id}:*")
    assert keys and max(int(other_instance.get(k)) for k in keys) >= 2


def test_the_budgets_default_to_600_writes_and_6000_reads_and_follow_the_environment():
    code = (
        "import memory_console.settings as s; r = s.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES'];"
        "print(r['token_writes'], r['token_reads'])"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("API_WRITES_PER_MINUTE", "API_READS_PER_MINUTE")}

    def rates(**extra: str) -> str:
        return subprocess.run(
            [sys.executable, "-c", code], env={**env, **extra}, capture_output=True, text=True, check=True,
            cwd=django_settings.BASE_DIR,
        ).stdout.split("\n")[-2]

    assert rates() == "600/min 6000/min"
    assert rates(API_WRITES_PER_MINUTE="5", API_READS_PER_MINUTE="50") == "5/min 50/min"
