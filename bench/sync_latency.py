"""Time from a change, and from a deletion, on the console to a folder under `memory-sync watch`,
polling (a pass every 2 s: `watch --no-wait`) and waiting (the held change feed) side by side,
p50 and p99; and what 100 idle watched folders cost the console: requests a minute, and the
threads, database connections and sockets they hold.

The console is served under uvicorn (ASGI), one process per instance. The change is an update,
or a deletion, through the agent API of the first instance; the folder syncs through the last.
With `--instances 2` that is another uvicorn process on another port, on the same PostgreSQL and
Redis, so the change reaches the folder only through PostgreSQL's NOTIFY. The baseline, measured
in the same run, is one pass made the moment the change is saved: the floor a polling client
cannot beat. Targets: p99 under 300 ms waiting, under 3 s polling (the seed promises about 15 s).

    .venv/bin/python bench/sync_latency.py [--trials 20] [--instances 1|2] [--idle-folders 100]
        [--idle-seconds 60] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import io
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import show, summary, use_scratch_database, uvicorn  # noqa: E402
from bench.runs_common import make_world, start_run  # noqa: E402

MEMORY_SYNC = Path(sys.executable).parent / "memory-sync"
TARGET_WAIT_P99_MS = 300
TARGET_POLL_P99_MS = 3000
SEED_PROMISE_MS = 15000
MODES = ("polling", "waiting")


def wait_for(predicate, timeout: float = 30.0) -> float:
    """Poll every 2 ms until ``predicate()`` holds; returns when it did."""
    deadline = time.perf_counter() + timeout
    while not predicate():
        if time.perf_counter() > deadline:
            raise TimeoutError("the folder never caught up")
        time.sleep(0.002)
    return time.perf_counter()


def read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def watch_args(mode: str) -> list[str]:
    return ["--no-wait"] if mode == "polling" else []


def latency(mode, session, write_url, sync_url, agent_token, store, to_change, to_delete, work, rng):
    """Changes and deletions through the first instance reaching a folder watched through the last."""
    from runs.sync_client.sync import Folder

    run = start_run(session, sync_url, agent_token, f"LAT-{MODES.index(mode) + 1}")
    folder = work / mode
    Folder.checkout(folder, url=sync_url, token=run["token"], run_id=run["id"])
    memories = f"{write_url}/api/v1/memory_stores/{store.public_id}/memories"
    changes, deletions = [], []
    proc = subprocess.Popen([str(MEMORY_SYNC), "watch", str(folder), *watch_args(mode)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(2.5)
        for i, memory in enumerate(to_change):
            time.sleep(rng.uniform(0, 2.0))  # land anywhere in the 2 s cycle
            text = f"# Changed {i}\nA change made through the first instance, number {i}.\n"
            session.post(f"{memories}/{memory.public_id}", json={"content": text}, timeout=30).raise_for_status()
            saved = time.perf_counter()
            path = folder / "project" / memory.path.lstrip("/")
            changes.append(wait_for(lambda p=path, t=text: read(p) == t) - saved)
        for memory in to_delete:
            time.sleep(rng.uniform(0, 2.0))
            session.delete(f"{memories}/{memory.public_id}", timeout=30).raise_for_status()
            saved = time.perf_counter()
            path = folder / "project" / memory.path.lstrip("/")
            deletions.append(wait_for(lambda p=path: not p.exists()) - saved)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    return changes, deletions


def floor(session, write_url, sync_url, agent_token, store, memories, work):
    """One pass started the moment the change is saved."""
    from runs.sync_client.sync import Folder

    run = start_run(session, sync_url, agent_token, "LAT-3")
    polled, _ = Folder.checkout(work / "floor", url=sync_url, token=run["token"], run_id=run["id"])
    url = f"{write_url}/api/v1/memory_stores/{store.public_id}/memories"
    samples = []
    for i, memory in enumerate(memories):
        text = f"# Floor {i}\n"
        session.post(f"{url}/{memory.public_id}", json={"content": text}, timeout=30).raise_for_status()
        saved = time.perf_counter()
        polled.sync_pass()
        assert read(work / "floor" / "project" / memory.path.lstrip("/")) == text
        samples.append(time.perf_counter() - saved)
    return samples


# What idle folders cost the console.


def threads_of(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return 0


def established(ports: set[int]) -> int:
    """TCP connections established to the servers' ports (the folders' open requests)."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except FileNotFoundError:
            continue
        for row in rows:
            fields = row.split()
            if fields[3] == "01" and int(fields[1].rsplit(":", 1)[1], 16) in ports:
                count += 1
    return count


def db_connections(db_url: str) -> int:
    if not db_url.startswith("postgres"):
        return 0
    import psycopg

    name = db_url.rsplit("/", 1)[1]
    with psycopg.connect(db_url.replace("postgres://", "postgresql://", 1)) as conn:
        return conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                            [name]).fetchone()[0]


def log_lines(paths: list[Path]) -> int:
    return sum(sum(1 for line in p.read_text(errors="replace").splitlines() if "HTTP/1.1" in line) for p in paths)


def idle_cost(mode, folders, servers, logs, db_url, seconds):
    """Run ``watch`` on every folder (threads of one child process) and count what the servers see."""
    from django.db import connection

    connection.close()  # this process's own connection is not the servers'
    pids = [proc.pid for _, proc in servers]
    ports = {int(url.rsplit(":", 1)[1]) for url, _ in servers}
    before = {"threads": sum(threads_of(p) for p in pids), "connections": db_connections(db_url)}
    child = subprocess.Popen([sys.executable, __file__, "--idle-child", mode, *map(str, folders)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(8)  # every folder's first pass, and its first held request
        start_lines, start = log_lines(logs), time.perf_counter()
        time.sleep(seconds / 2)
        held = {"threads": sum(threads_of(p) for p in pids), "connections": db_connections(db_url),
                "sockets": established(ports)}
        time.sleep(seconds / 2)
        per_minute = (log_lines(logs) - start_lines) / (time.perf_counter() - start) * 60
    finally:
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=120)
    assert child.returncode == 0, err
    failed = int(out.split()[-1]) if out.split() else len(folders)
    return {"per_minute": per_minute, "before": before, "failed": failed, **held}


def idle_child(mode: str, folders: list[str]) -> None:
    """`memory-sync watch` on each folder, in threads, until SIGTERM."""
    from runs.sync_client.cli import main

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    codes: list[int] = []
    threads = [threading.Thread(target=lambda f=f: codes.append(main(
        ["watch", f, *watch_args(mode)], stop_event=stop, stdout=io.StringIO(), stderr=io.StringIO())), daemon=True)
        for f in folders]
    for t in threads:
        t.start()
    stop.wait()
    for t in threads:
        t.join(timeout=60)
    print(len(folders) - codes.count(0))  # watches whose last pass could not save everything (or never ended)
    sys.exit(0)


def run(args) -> None:
    db = use_scratch_database()
    if args.instances > 1 and not db.startswith("postgres"):
        sys.exit("--instances 2 needs PostgreSQL (set BENCH_DATABASE_URL or start one on 127.0.0.1:5432)")
    print(f"database: {db.split('@')[-1]}; redis: {(os.environ.get('REDIS_URL') or 'none').split('@')[-1]}")
    trials = args.trials
    _, agent_token, _ = make_world({"LAT": 4 * trials + 10, "IDLE": 5})
    import requests

    from runs.sync_client.sync import Folder
    from stores.models import Memory, Store

    store = Store.objects.get(project__key="LAT")
    memories = list(Memory.objects.filter(store=store).order_by("path"))
    rng = random.Random(11)
    work = Path(tempfile.mkdtemp(prefix="mc-bench-latency-", dir=args.workdir))
    figures: dict[str, tuple[list[float], list[float]]] = {}
    idle: dict[str, dict] = {}
    try:
        with ExitStack() as stack:
            logs = [work / f"server-{i + 1}.log" for i in range(args.instances)]
            servers = [stack.enter_context(uvicorn(log)) for log in logs]
            write_url, sync_url = servers[0][0], servers[-1][0]
            print(f"instances: {', '.join(url for url, _ in servers)} (uvicorn, one process each); changes through "
                  f"{write_url}, folders synced through {sync_url}")
            session = requests.Session()
            session.headers["Authorization"] = f"Bearer {agent_token}"
            for n, mode in enumerate(MODES):
                mine = memories[n * 2 * trials:(n + 1) * 2 * trials]
                figures[mode] = latency(mode, session, write_url, sync_url, agent_token, store, mine[:trials],
                                        mine[trials:], work, rng)
            base = floor(session, write_url, sync_url, agent_token, store, memories[4 * trials:4 * trials + 10], work)
            if args.idle_folders:
                folders = []
                for i in range(args.idle_folders):
                    run_ = start_run(session, sync_url, agent_token, f"IDLE-{i + 1}")
                    Folder.checkout(work / "idle" / str(i), url=sync_url, token=run_["token"], run_id=run_["id"])
                    folders.append(work / "idle" / str(i))
                for mode in MODES:
                    idle[mode] = idle_cost(mode, folders, servers, logs, db, args.idle_seconds)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"\nConsole to a watched folder, {trials} trials each; polling = `watch --no-wait` (a pass every 2 s), "
          "waiting = `watch` (held change feed)")
    worst = {}
    for mode in MODES:
        changes, deletions = figures[mode]
        print(f" {mode}:")
        change = show("a change reaches the folder", changes)
        deletion = show("a deletion leaves the folder", deletions)
        worst[mode] = max(change["p99_ms"], deletion["p99_ms"])
    print(" baseline:")
    base_s = show("one pass right after the change", base)
    print("\n  side by side (ms)               polling p50   polling p99   waiting p50   waiting p99")
    for label, index in (("change", 0), ("deletion", 1)):
        p, w = summary(figures["polling"][index]), summary(figures["waiting"][index])
        print(f"  {label:<30} {p['p50_ms']:11.0f}   {p['p99_ms']:11.0f}   {w['p50_ms']:11.1f}   {w['p99_ms']:11.1f}")
    print(f"\n  waiting p99 {worst['waiting']:.0f} ms against the {TARGET_WAIT_P99_MS} ms target: "
          f"{'met' if worst['waiting'] < TARGET_WAIT_P99_MS else 'MISSED'}; polling p99 {worst['polling']:.0f} ms "
          f"against {TARGET_POLL_P99_MS:,} ms: {'met' if worst['polling'] < TARGET_POLL_P99_MS else 'MISSED'}")
    print(f"  ratio polling p99 / waiting p99: {worst['polling'] / worst['waiting']:.1f}x; waiting change p50 / "
          f"one-pass floor p50: {summary(figures['waiting'][0])['p50_ms'] / base_s['p50_ms']:.1f}x")
    if idle:
        print(f"\n{args.idle_folders} idle watched folders (no change anywhere), {args.idle_seconds} s each way, "
              f"{args.instances} instance(s):")
        print("                                        polling      waiting")
        print(f"  requests a minute                  {idle['polling']['per_minute']:9.0f}    "
              f"{idle['waiting']['per_minute']:9.0f}")
        for key, label in (("threads", "server threads (all instances)"), ("connections", "database connections")):
            print(f"  {label:<34} {idle['polling'][key]:9d}    {idle['waiting'][key]:9d}   "
                  f"(before the folders: {idle['waiting']['before'][key]})")
        print(f"  {'open sockets to the servers':<34} {idle['polling']['sockets']:9d}    {idle['waiting']['sockets']:9d}")
        print(f"  {'watches that ended with an error':<34} {idle['polling']['failed']:9d}    {idle['waiting']['failed']:9d}")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--idle-child":
        idle_child(sys.argv[2], sys.argv[3:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--instances", type=int, choices=(1, 2), default=1)
    parser.add_argument("--idle-folders", type=int, default=100)
    parser.add_argument("--idle-seconds", type=float, default=60.0)
    parser.add_argument("--workdir", default=None, help="where to check out (default: the system temp folder)")
    run(parser.parse_args())
