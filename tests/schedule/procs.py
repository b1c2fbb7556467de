"""Real parts for the schedule's tests: a private Redis server, Celery worker and beat processes,
and a switch that points this process's Celery app at a given broker."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from celery import current_app
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
CELERY = str(Path(sys.executable).with_name("celery"))
REDIS_SERVER = shutil.which("redis-server")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout: float, interval: float = 0.1, what: str | Callable[[], str] = "condition") -> None:
    """Poll ``predicate`` until it is true; fail the test with ``what`` (or what it returns) after about
    ``timeout`` s of polling. A liveness bound counted in polls, not a clock: no test times anything."""
    for _ in range(max(1, round(timeout / interval))):
        if predicate():
            return
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what() if callable(what) else what}")


class PrivateRedis:
    """A redis-server of the test's own on a free loopback port, without persistence; stop and start at will."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def start(self) -> None:
        assert REDIS_SERVER, "redis-server is not installed"
        self.proc = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.workdir), "--logfile", str(self.workdir / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        wait_for(self._answers, 10, what=f"redis-server on port {self.port}")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        wait_for(lambda: not self._answers(), 5, what="redis-server to stop")

    def __enter__(self) -> PrivateRedis:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


@contextmanager
def use_broker(url: str) -> Iterator[None]:
    """Point this process's Celery app at ``url`` with tasks sent to it (not run in process)."""
    conf = current_app.conf
    saved = conf.broker_url, conf.task_always_eager

    def drop_pools() -> None:
        # The producer pools are built once from broker_url; drop them so the next send uses the new one.
        if current_app._pool is not None:
            current_app._pool.force_close_all()
        current_app._pool = None
        current_app.amqp._producer_pool = None

    drop_pools()
    conf.broker_url, conf.task_always_eager = url, False
    try:
        yield
    finally:
        drop_pools()
        conf.broker_url, conf.task_always_eager = saved


def shared_database_url() -> str:
    """The URL of the database this test runs on (pytest-django's test_<name>), for child processes."""
    s = connection.settings_dict
    assert connection.vendor == "postgresql", "child processes can only share a PostgreSQL test database"
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def child_env(*, broker_url: str, database_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        REDIS_URL=broker_url,
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="memory_console.settings_test",
        PYTHONPATH=str(ROOT),
        LOG_LEVEL="INFO",
    )
    return env


class CeleryProcess:
    """``celery -A memory_console <worker|beat> ...`` in a subprocess, logging to a file we can read."""

    def __init__(self, args: list[str], env: dict[str, str], logfile: Path, ready_line: str) -> None:
        self.args, self.env, self.logfile, self.ready_line = args, env, logfile, ready_line
        self.proc: subprocess.Popen | None = None

    def log(self) -> str:
        return self.logfile.read_text(errors="replace") if self.logfile.exists() else ""

    def __enter__(self) -> CeleryProcess:
        self.proc = subprocess.Popen(
            [CELERY, "-A", "memory_console", *self.args, "--logfile", str(self.logfile), "--loglevel", "INFO"],
            env=self.env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            wait_for(
                lambda: self.ready_line in self.log() or self.proc.poll() is not None, 60,
                what=f"celery {self.args[0]} to start",
            )
        except AssertionError:
            self.__exit__()
            raise
        assert self.proc.poll() is None, f"celery {self.args[0]} exited early:\n{self.log()[-3000:]}"
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # warm shutdown: finish the task in hand
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


def celery_worker(env: dict[str, str], workdir: Path, include: str | None = None) -> CeleryProcess:
    args = ["worker", "--pool", "solo", "--hostname", f"test-{os.getpid()}@%h",
            "--without-heartbeat", "--without-mingle", "--without-gossip"]
    if include:
        args += ["--include", include]
    return CeleryProcess(args, env, workdir / "worker.log", ready_line=" ready.")


def celery_beat(env: dict[str, str], workdir: Path) -> CeleryProcess:
    args = ["beat", "--scheduler", "django_celery_beat.schedulers:DatabaseScheduler", "--max-interval", "1",
            "--pidfile", str(workdir / "beat.pid")]
    return CeleryProcess(args, env, workdir / "beat.log", ready_line="beat: Starting")
