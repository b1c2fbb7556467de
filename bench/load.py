"""Load held: 50 agents writing and reading for 5 minutes on PostgreSQL through gunicorn, with a handful
of `memory-sync watch` folders on the same project store, under the API's default per-token budgets.

Each agent has its own token and loops (a short random pause between calls) over: reading a memory
of the project store, listing a folder of it, updating one of its own notes there (with the content
precondition it last saw), and creating notes in its own store (deleting its oldest once it keeps
20). The watched folders follow the project store throughout and must hold its final state after.

Printed: throughput, p50/p99 latency per operation, answers by status, the RSS of every server
process (gunicorn master and workers) and of every watcher at the start and the end, against a
stated bound on growth; and the baseline measured in the same run before the load: one agent
alone reading one memory (and updating one note), with the loaded/alone ratios.

    .venv/bin/python bench/load.py [--seconds 300] [--agents 50] [--watchers 5] [--workers 4]

PostgreSQL at BENCH_DATABASE_URL (default: the local server); the cache (and so the throttle's
counts, shared by the workers) on REDIS_URL when it is set. Everything runs on 127.0.0.1; every loop
is bounded in time and count, and the script stops its server and watchers by itself.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["DJANGO_SETTINGS_MODULE"] = "bench.load_settings"

from bench.common import ROOT, free_port, summary, use_scratch_database  # noqa: E402
from bench.runs_common import fill_store, start_run  # noqa: E402

MEMORY_SYNC = Path(sys.executable).parent / "memory-sync"
PROJECT = "PERF"
OWN_NOTES = 3          # notes each agent keeps updating in the project store
OWN_STORE_CAP = 20     # notes each agent keeps in its own store before deleting its oldest
# The stated bound: no server or watcher process grows by more than this over the run.
RSS_GROWTH_BOUND_MIB = 32
MIX = (("read", 0.50), ("list", 0.15), ("update", 0.22), ("create", 0.13))
REQUESTS_PER_SECOND_CAP = 200  # per agent: the hard bound on each loop's count, whatever the server does


def rss_mib(pid: int) -> float | None:
    """The resident set size of a process, from /proc (None once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def server_kind() -> tuple[str, list[str], str]:
    """How the console is served: its ASGI application under uvicorn's gunicorn worker when the build
    has one (a watched folder's held change request then holds no worker), else WSGI sync workers."""
    if (ROOT / "memory_console" / "asgi.py").exists() and importlib.util.find_spec("uvicorn") is not None:
        return "memory_console.asgi:application", ["-k", "uvicorn.workers.UvicornWorker"], "uvicorn workers, ASGI"
    return "memory_console.wsgi:application", [], "sync workers, WSGI"


@contextmanager
def gunicorn(workers: int, env: dict[str, str]):
    """The console under gunicorn with the load settings, on a free loopback port."""
    port = free_port()
    app, worker_args, _ = server_kind()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", app, *worker_args, "-b", f"127.0.0.1:{port}", "-w", str(workers),
         "--backlog", "256", "--timeout", "120", "--log-level", "warning", "--chdir", str(ROOT)],
        env=env, cwd=ROOT,
    )
    for _ in range(300):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
        except OSError:
            time.sleep(0.1)
    try:
        yield f"http://127.0.0.1:{port}", proc
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@dataclass
class Agent:
    name: str
    token: str
    own_store: str
    notes: dict[str, str]                      # memory id -> last content_sha256 seen (project store)
    created: list[str] = field(default_factory=list)
    made: int = 0
    writes: int = 0
    reads: int = 0


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, op: str, seconds: float, status: str) -> None:
        with self.lock:
            self.latencies[op].append(seconds)
            self.statuses[op][status] += 1


def build_world(n_agents: int, project_notes: int):
    """A client, a project whose store holds ``project_notes`` notes, and agents in a pod covering it,
    each with its own token and OWN_NOTES notes of its own in the project store."""
    from stores.console_checks.request import Writer
    from stores.models import Store
    from stores.services.memories import memory_create
    from stores.services.registry import agent_add, client_add, pod_add, project_add

    # Made as an operator makes them (the registry's services), so every store comes with its owner.
    client = client_add(name="Northwind Traders")
    store = Store.objects.get(project=project_add(key=PROJECT, client=client))
    fill_store(store, project_notes, key=PROJECT)
    made = [agent_add(name=f"agent-{i:02d}", jira_account_id=f"acc-{i:02d}") for i in range(n_agents)]
    pod_add(name="load-pod", agents=[agent.name for agent, _ in made], projects=[PROJECT])
    agents = []
    for agent, token in made:
        writer = Writer(agent=agent, door="api")
        notes = {}
        for k in range(OWN_NOTES):
            m = memory_create(writer=writer, store=store, path=f"/agents/{agent.name}/note-{k}.md",
                              content=f"# Note {k}\nWhat {agent.name} keeps about step 0.\n")
            notes[m.public_id] = m.content_sha256
        agents.append(Agent(agent.name, token, Store.objects.get(agent=agent).public_id, notes))
    ids = list(store.memories.filter(deleted_at__isnull=True).values_list("public_id", flat=True))
    return store, agents, ids


def one_call(session, tally: Tally, op: str, method: str, url: str, token: str, agent: Agent | None = None, **kw):
    if agent is not None:
        if method == "GET":
            agent.reads += 1
        else:
            agent.writes += 1
    started = time.perf_counter()
    try:
        response = session.request(method, url, headers={"Authorization": f"Bearer {token}"}, timeout=60, **kw)
        status = str(response.status_code)
    except Exception as exc:  # a refused or dropped connection is an error to count, not a crash
        response, status = None, f"exception:{type(exc).__name__}"
    tally.add(op, time.perf_counter() - started, status)
    return response


def agent_loop(url: str, sid: str, agent: Agent, ids: list[str], end: float, tally: Tally, seed: int,
               max_calls: int) -> None:
    """One agent's bounded loop: until ``end`` or ``max_calls``, whichever comes first."""
    import requests

    rng = random.Random(seed)
    ops, weights = zip(*MIX, strict=True)
    base = f"{url}/api/v1/memory_stores"
    with requests.Session() as s:
        for step in range(max_calls):
            if time.perf_counter() >= end:
                return
            op = rng.choices(ops, weights)[0]
            if op == "read":
                one_call(s, tally, op, "GET", f"{base}/{sid}/memories/{rng.choice(ids)}", agent.token, agent)
            elif op == "list":
                folder = rng.choice(("conventions", "data", "rationale", "solutions", "issues"))
                one_call(s, tally, op, "GET", f"{base}/{sid}/memories", agent.token, agent,
                         params={"path_prefix": f"/{folder}/", "limit": 20})
            elif op == "update":
                mid = rng.choice(list(agent.notes))
                body = {"content": f"# Note\nWhat {agent.name} keeps about step {step}.\n",
                        "precondition": {"type": "content_sha256", "content_sha256": agent.notes[mid]}}
                r = one_call(s, tally, op, "POST", f"{base}/{sid}/memories/{mid}", agent.token, agent, json=body)
                if r is not None and r.status_code == 200:
                    agent.notes[mid] = r.json()["content_sha256"]
                elif r is not None and r.status_code == 409:
                    seen = one_call(s, tally, "read", "GET", f"{base}/{sid}/memories/{mid}", agent.token, agent)
                    if seen is not None and seen.status_code == 200:
                        agent.notes[mid] = seen.json()["content_sha256"]
            else:
                if len(agent.created) >= OWN_STORE_CAP:
                    r = one_call(s, tally, "delete", "DELETE", f"{base}/{agent.own_store}/memories/{agent.created[0]}",
                                 agent.token, agent)
                    if r is not None and r.status_code in (200, 404):
                        agent.created.pop(0)
                agent.made += 1
                r = one_call(s, tally, op, "POST", f"{base}/{agent.own_store}/memories", agent.token, agent,
                             json={"path": f"/notes/n-{agent.made:05d}.md",
                                   "content": f"# Lesson {agent.made}\n{agent.name} found step {step} worth keeping.\n"})
                if r is not None and r.status_code == 200:
                    agent.created.append(r.json()["id"])
            time.sleep(rng.uniform(0.0, 0.2))  # an agent thinks between calls


def alone(url: str, sid: str, agent: Agent, n: int) -> tuple[list[float], list[float]]:
    """The baseline: one agent alone, n reads of one memory, then n updates of one of its notes."""
    import requests

    reads, writes = [], []
    mid = next(iter(agent.notes))
    with requests.Session() as s:
        for _ in range(n):
            started = time.perf_counter()
            s.get(f"{url}/api/v1/memory_stores/{sid}/memories/{mid}", timeout=60,
                  headers={"Authorization": f"Bearer {agent.token}"}).raise_for_status()
            reads.append(time.perf_counter() - started)
        for i in range(n):
            body = {"content": f"# Note\nBaseline step {i}.\n",
                    "precondition": {"type": "content_sha256", "content_sha256": agent.notes[mid]}}
            started = time.perf_counter()
            r = s.post(f"{url}/api/v1/memory_stores/{sid}/memories/{mid}", json=body, timeout=60,
                       headers={"Authorization": f"Bearer {agent.token}"})
            writes.append(time.perf_counter() - started)
            r.raise_for_status()
            agent.notes[mid] = r.json()["content_sha256"]
    return reads, writes


def warm(url: str, sid: str, agent: Agent, workers: int) -> None:
    """Reach every worker before anything is measured (each loads its checks and matchers on first use):
    calls on fresh connections, several at once, so the master hands them to different workers."""
    import requests

    def once(i: int) -> None:
        headers = {"Authorization": f"Bearer {agent.token}", "Connection": "close"}
        requests.get(f"{url}/api/v1/memory_stores/{sid}/memories/{next(iter(agent.notes))}", headers=headers,
                     timeout=60).raise_for_status()
        requests.post(f"{url}/api/v1/memory_stores/{agent.own_store}/memories", headers=headers, timeout=60,
                      json={"path": f"/warm/w-{i:03d}.md", "content": f"# Warm-up {i}\nA first note.\n"}
                      ).raise_for_status()

    with ThreadPoolExecutor(max_workers=2 * workers) as pool:
        list(pool.map(once, range(8 * workers)))


def folders_caught_up(store, folders: list[Path]) -> int:
    """How many watched folders hold exactly the project store's live notes."""
    live = {m.path: m.content for m in store.memories.filter(deleted_at__isnull=True)}
    good = 0
    for folder in folders:
        root = folder / "project"
        if all((root / path.lstrip("/")).is_file() and (root / path.lstrip("/")).read_text(encoding="utf-8") == text
               for path, text in live.items()):
            good += 1
    return good


def run(seconds: int, n_agents: int, n_watchers: int, workers: int, baseline_n: int, project_notes: int,
        workdir: str | None) -> int:
    db = use_scratch_database()
    if not db.startswith("postgres"):
        print("bench/load.py needs PostgreSQL (BENCH_DATABASE_URL, or a local server on 127.0.0.1:5432).")
        return 2
    from django.conf import settings

    from runs.sync_client.sync import Folder

    print(f"database: {db.split('@')[-1]}; cache: {settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}")
    rates = settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES") or {}
    print(f"per-token budgets (the settings' defaults): {rates or 'none: this build has no API throttle'}")
    store, agents, ids = build_world(n_agents, project_notes)
    env = {k: v for k, v in os.environ.items() if k not in ("API_WRITES_PER_MINUTE", "API_READS_PER_MINUTE")}
    # Persistent connections under WSGI; none under ASGI, as Django advises there.
    asgi = server_kind()[0].endswith("asgi:application")
    env.update(DJANGO_SETTINGS_MODULE="bench.load_settings", DB_CONN_MAX_AGE="0" if asgi else "60")
    work = Path(tempfile.mkdtemp(prefix="mc-bench-load-", dir=workdir))
    watchers: list[subprocess.Popen] = []
    tally = Tally()
    try:
        with gunicorn(workers, env) as (url, master):
            import requests

            folders = []
            with requests.Session() as s:
                for i in range(n_watchers):
                    run_ = start_run(s, url, agents[i].token, f"{PROJECT}-{i + 1}")
                    Folder.checkout(work / f"w{i}", url=url, token=run_["token"], run_id=run_["id"])
                    folders.append(work / f"w{i}")
            for folder in folders:
                watchers.append(subprocess.Popen([str(MEMORY_SYNC), "watch", str(folder)],
                                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
            sid = store.public_id
            warm(url, sid, agents[-1], workers)
            base_reads, base_writes = alone(url, sid, agents[-1], baseline_n)

            server = [("gunicorn master", master.pid)] + [(f"gunicorn worker {i + 1}", pid)
                                                          for i, pid in enumerate(children(master.pid))]
            procs = server + [(f"memory-sync watch {i + 1}", w.pid) for i, w in enumerate(watchers)]
            rss_start = {name: rss_mib(pid) for name, pid in procs}

            print(f"\nLoad: {n_agents} agents for {seconds} s on gunicorn, {workers} {server_kind()[2]}, "
                  f"{n_watchers} folders under `memory-sync watch`")
            started = time.perf_counter()
            end = started + seconds
            threads = [threading.Thread(target=agent_loop, daemon=True,
                                        args=(url, sid, a, ids, end, tally, i, seconds * REQUESTS_PER_SECOND_CAP))
                       for i, a in enumerate(agents)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=seconds + 120)
            elapsed = time.perf_counter() - started
            rss_end = {name: rss_mib(pid) for name, pid in procs}

            caught = 0
            for _ in range(60):  # the folders have at most 30 s to hold the store's final state
                caught = folders_caught_up(store, folders)
                if caught == len(folders):
                    break
                time.sleep(0.5)
            watchers_alive = sum(1 for w in watchers if w.poll() is None)
    finally:
        for w in watchers:
            if w.poll() is None:
                w.send_signal(signal.SIGTERM)
        for w in watchers:
            try:
                w.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                w.kill()
        shutil.rmtree(work, ignore_errors=True)

    total = sum(len(v) for v in tally.latencies.values())
    print(f"\n  {total:,} calls in {elapsed:.1f} s: {total / elapsed:,.1f} calls/s")
    print(f"  {'operation':<10} {'calls':>8} {'per s':>8} {'p50 ms':>9} {'p99 ms':>9}   answers by status")
    stats = {}
    for op in ("read", "list", "update", "create", "delete"):
        samples = tally.latencies.get(op)
        if not samples:
            continue
        stats[op] = summary(samples)
        statuses = ", ".join(f"{k}: {v:,}" for k, v in sorted(tally.statuses[op].items()))
        print(f"  {op:<10} {len(samples):>8,} {len(samples) / elapsed:>8.1f} {stats[op]['p50_ms']:>9.1f} "
              f"{stats[op]['p99_ms']:>9.1f}   {statuses}")
    errors = Counter()
    for counter in tally.statuses.values():
        for status, n in counter.items():
            if not status.startswith("2"):
                errors[status] += n
    print(f"  not 2xx, all operations: {dict(sorted(errors.items())) or 'none'}")
    minutes = elapsed / 60
    print(f"  busiest token: {max(a.writes for a in agents) / minutes:,.0f} writes/min, "
          f"{max(a.reads for a in agents) / minutes:,.0f} reads/min (budgets: {rates or 'none'})")

    read_alone, write_alone = summary(base_reads), summary(base_writes)
    print(f"\n  baseline, one agent alone before the load ({baseline_n} calls each):")
    print(f"  {'read of one memory':<28} p50 {read_alone['p50_ms']:8.1f} ms   p99 {read_alone['p99_ms']:8.1f} ms")
    print(f"  {'update of one note':<28} p50 {write_alone['p50_ms']:8.1f} ms   p99 {write_alone['p99_ms']:8.1f} ms")
    for op in stats:
        ref = write_alone if op in ("update", "create", "delete") else read_alone
        print(f"  ratio {op} under load / {'update' if ref is write_alone else 'read'} alone: "
              f"p50 {stats[op]['p50_ms'] / ref['p50_ms']:.1f}x, p99 {stats[op]['p99_ms'] / ref['p99_ms']:.1f}x")

    print(f"\n  RSS (MiB) at the start and the end of the load; bound: growth under {RSS_GROWTH_BOUND_MIB} MiB each")
    worst = 0.0
    for name, _pid in procs:
        a, b = rss_start.get(name), rss_end.get(name)
        if a is None or b is None:
            print(f"  {name:<22} gone before the end")
            worst = float("inf")
            continue
        worst = max(worst, b - a)
        print(f"  {name:<22} {a:8.1f} -> {b:8.1f}   ({b - a:+.1f})")
    print(f"  largest growth {worst:+.1f} MiB: {'within' if worst < RSS_GROWTH_BOUND_MIB else 'OVER'} the bound")
    print(f"\n  watched folders holding the store's final state: {caught} of {len(folders)} "
          f"({watchers_alive} watchers still running at the end)")
    return 0 if caught == len(folders) and worst < RSS_GROWTH_BOUND_MIB else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=300, help="how long the load runs (default 300)")
    parser.add_argument("--agents", type=int, default=50, help="agents, each with its own token (default 50)")
    parser.add_argument("--watchers", type=int, default=5, help="folders under `memory-sync watch` (default 5)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers (default 4)")
    parser.add_argument("--baseline", type=int, default=200, help="calls of each baseline kind (default 200)")
    parser.add_argument("--project-notes", type=int, default=300, help="notes in the project store (default 300)")
    parser.add_argument("--workdir", default=None, help="where the folders are checked out (default: temp)")
    args = parser.parse_args()
    if args.watchers > args.agents:
        parser.error("--watchers cannot exceed --agents (each folder is one agent's run)")
    sys.exit(run(args.seconds, args.agents, args.watchers, args.workers, args.baseline, args.project_notes,
                 args.workdir))
