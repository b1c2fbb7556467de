"""Writes through the agent API against a bare DRF create of the same row, in the same run.

Over HTTP (gunicorn) and through Django's test client. The full write runs every check
(who, where, secrets, instructions, client detail against a registry of 2,000 clients, when)
and the service's locking, versioning and run bookkeeping; the bare one has the same
authentication and the same history row, and nothing else. Prints figures and ratios.

    .venv/bin/python bench/api_write.py [--n 300]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import gunicorn, show, use_scratch_database  # noqa: E402

LESSON = (
    "# Incremental models need a unique key\n\n"
    "Fact: the orders model duplicated rows after a late-arriving update because the incremental\n"
    "strategy was append. Evidence: row counts doubled for two days in the QA comparison.\n"
    "Fix that worked: merge strategy with a unique key on order id, and a lookback of three days.\n"
) * 5


def setup_world():
    from stores.models import Client, HostedAgent
    from stores.services.stores import store_ensure_for_agent
    from stores.services.tokens import token_issue_for_agent

    rng = random.Random(7)
    words = ["north", "river", "atlas", "crown", "delta", "ember", "fable", "grove", "harbor", "ivory"]
    Client.objects.bulk_create(
        [
            Client(
                name=f"{rng.choice(words).title()} {rng.choice(words).title()} {i}",
                aliases=[f"nr{i}co"], repositories=[f"org/repo-{i}"], datasets=[f"ds_{i}"],
                tables=[f"ds_{i}.orders_{i}"],
            )
            for i in range(2000)
        ]
    )
    agent = HostedAgent.objects.create(name="bench-agent")
    store = store_ensure_for_agent(agent)
    _, token = token_issue_for_agent(agent)
    return store.public_id, token


def timed(fn, n: int) -> list[float]:
    samples = []
    for i in range(n):
        t = time.perf_counter()
        fn(i)
        samples.append(time.perf_counter() - t)
    return samples


def run(n: int) -> None:
    db = use_scratch_database()
    print(f"database: {db.split('@')[-1]}")
    sid, token = setup_world()
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    import requests

    results = {}
    with gunicorn(workers=1) as url:
        s = requests.Session()
        s.headers.update(headers)

        def full(i, prefix="/h/full"):
            r = s.post(f"{url}/api/v1/memory_stores/{sid}/memories", json={"path": f"{prefix}/{i}.md", "content": LESSON + str(i)})
            assert r.status_code == 200, r.text

        def bare(i, prefix="/h/bare"):
            r = s.post(f"{url}/bare/{sid}/memories", json={"path": f"{prefix}/{i}.md", "content": LESSON + str(i)})
            assert r.status_code == 200, r.text

        ids = []

        def update(i):
            r = s.post(f"{url}/api/v1/memory_stores/{sid}/memories/{ids[i]}", json={"content": LESSON + f"updated {i}"})
            assert r.status_code == 200, r.text

        timed(lambda i: full(i, "/h/warm-full"), 20)
        timed(lambda i: bare(i, "/h/warm-bare"), 20)
        f_s, b_s = [], []
        for i in range(n):  # interleaved, so drift hits both alike
            f_s += timed(lambda _, i=i: full(i), 1)
            b_s += timed(lambda _, i=i: bare(i), 1)
        from stores.models import Memory

        ids = list(Memory.objects.filter(path__startswith="/h/full/").order_by("id").values_list("public_id", flat=True))
        u_s = timed(update, n)
        print(f"\nHTTP (gunicorn, 1 sync worker), {n} writes each, 2 kB notes, registry of 2,000 clients")
        results["http_full"] = show("create through every check", f_s)["mean_ms"]
        results["http_update"] = show("update through every check", u_s)["mean_ms"]
        results["http_bare"] = show("bare DRF create (same auth and history)", b_s)["mean_ms"]

    from rest_framework.test import APIClient

    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")

    def tc_full(i):
        assert c.post(f"/api/v1/memory_stores/{sid}/memories", {"path": f"/t/full/{i}.md", "content": LESSON + str(i)}, format="json").status_code == 200

    def tc_bare(i):
        assert c.post(f"/bare/{sid}/memories", {"path": f"/t/bare/{i}.md", "content": LESSON + str(i)}, format="json").status_code == 200

    timed(lambda i: tc_full(10_000 + i), 10)
    timed(lambda i: tc_bare(10_000 + i), 10)
    tf, tb = [], []
    for i in range(n):
        tf += timed(lambda _, i=i: tc_full(i), 1)
        tb += timed(lambda _, i=i: tc_bare(i), 1)
    print(f"\nTest client (in process), {n} writes each")
    results["tc_full"] = show("create through every check", tf)["mean_ms"]
    results["tc_bare"] = show("bare DRF create (same auth and history)", tb)["mean_ms"]

    print("\nRatios (full / bare; target: HTTP create under 2.0x)")
    print(f"  HTTP create        {results['http_full'] / results['http_bare']:.2f}x")
    print(f"  HTTP update        {results['http_update'] / results['http_bare']:.2f}x")
    print(f"  test-client create {results['tc_full'] / results['tc_bare']:.2f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=300)
    run(parser.parse_args().n)
