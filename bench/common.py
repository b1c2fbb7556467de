"""Shared benchmark plumbing: a scratch database, a gunicorn server, timing and printing."""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/mc_bench_" + Path(sys.argv[0]).stem


def use_scratch_database(url: str | None = None) -> str:
    """Point Django at a fresh benchmark database (PostgreSQL when it answers, else an SQLite file)."""
    url = url or os.environ.get("BENCH_DATABASE_URL") or DEFAULT_PG
    if url.startswith("postgres"):
        import psycopg

        admin = url.rsplit("/", 1)[0] + "/postgres"
        name = url.rsplit("/", 1)[1]
        try:
            with psycopg.connect(admin.replace("postgres://", "postgresql://"), autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                conn.execute(f'CREATE DATABASE "{name}"')
        except psycopg.OperationalError:
            url = f"sqlite:///{ROOT / 'bench.sqlite3'}"
    if url.startswith("sqlite"):
        Path(url.removeprefix("sqlite:///")).unlink(missing_ok=True)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.bench_settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return url


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, timeout: float = 30.0) -> None:
    """Wait until something accepts connections on the loopback ``port`` (or ``timeout`` passes)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)


@contextmanager
def gunicorn(workers: int = 2):
    """Serve the benchmark settings under gunicorn on a free loopback port."""
    port = free_port()
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="bench.bench_settings", DB_CONN_MAX_AGE="60")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "bench.bench_wsgi:application", "-b", f"127.0.0.1:{port}",
         "-w", str(workers), "--log-level", "warning", "--chdir", str(ROOT)],
        env=env, cwd=ROOT,
    )
    url = f"http://127.0.0.1:{port}"
    wait_for_port(port)
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@contextmanager
def uvicorn(log_path: Path | None = None):
    """Serve the benchmark settings under uvicorn (ASGI, one process) on a free loopback port.

    Yields (url, process). Access lines go to ``log_path`` (one line a request) when given.
    Persistent database connections stay off, as Django advises under ASGI.
    """
    port = free_port()
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="bench.bench_settings", DB_CONN_MAX_AGE="0")
    log = open(log_path, "w") if log_path else subprocess.DEVNULL  # noqa: SIM115 (closed below)
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "memory_console.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--log-level", "info" if log_path else "warning"],
        env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    wait_for_port(port)
    try:
        yield url, proc
    finally:
        proc.terminate()
        proc.wait(timeout=15)
        if log_path:
            log.close()


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {"mean_ms": statistics.fmean(samples) * 1000, "p50_ms": p(0.5) * 1000, "p99_ms": p(0.99) * 1000}


def show(label: str, samples: list[float]) -> dict[str, float]:
    s = summary(samples)
    print(f"  {label:<44} mean {s['mean_ms']:8.2f} ms   p50 {s['p50_ms']:8.2f} ms   p99 {s['p99_ms']:8.2f} ms")
    return s
