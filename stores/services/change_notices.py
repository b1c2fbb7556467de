"""Notices of committed memory writes, for waiting readers (a run folder's long-poll).

The memory service's one hook (``version_hooks``: a version was written) calls
``notice_version_written`` for every write (every write advances its store's change number); the
stores app registers it in its ``ready()``. On PostgreSQL it sends ``NOTIFY`` inside the write's own
transaction, so PostgreSQL delivers it when, and only when, the write commits, to every console
instance listening on that database (a create's notice goes with the statement that takes its change
number, ``NOTICE_COLUMN``, and the hook does not send it again). Each process listens on one connection, in one thread, and
wakes the requests waiting on that store (``wait_for_store_changes``); a request waits on the
event loop (or, under WSGI, in its own worker thread) and holds no database connection while it
waits. On SQLite there is no notification: a waiting request looks at its stores' change numbers
every ``POLL_SECONDS`` instead.

What a waiter waits for is a mapping of store public id to the change number it has seen; it
wakes only for those stores (a run waits only on the stores attached to it), and only for a
number beyond the one it has seen.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Mapping

from django.db import close_old_connections, connection, connections

from stores.models import Store

from .version_hooks import VersionWritten

log = logging.getLogger(__name__)

CHANNEL = "memory_console_store_changes"
# SQLite, or PostgreSQL while the listening connection is down: how often a waiter looks itself.
POLL_SECONDS = 0.1
FALLBACK_POLL_SECONDS = 1.0
RECONNECT_SECONDS = 1.0


def _on_postgresql() -> bool:
    return connections["default"].vendor == "postgresql"


def notice_version_written(event: VersionWritten) -> None:
    """The version-written listener: tell waiting readers of the write's store."""
    notice_store_change(event.store)


# The same notice as a column of the statement that advances a store's change number (a create's lock,
# ``memories.lock_store_taking_seq``): sent with that number, from the row as the statement leaves it, so
# the write needs no round trip of its own for it. PostgreSQL only.
NOTICE_COLUMN = f"pg_notify('{CHANNEL}', public_id || ' ' || change_seq)"


def noticed_in_statement(store: Store) -> None:
    """Say that the statement which advanced ``store`` to its change number sent the notice of it
    (``NOTICE_COLUMN``), so ``notice_store_change`` does not send it again."""
    store._noticed_change_seq = store.change_seq


def notice_store_change(store: Store) -> None:
    """Tell waiting readers that ``store`` reached ``store.change_seq``, once the write commits.

    Called inside the write's transaction, after the change number moved. PostgreSQL holds a ``NOTIFY`` back until the commit and drops it on a rollback; a
    transaction that writes one store several times sends the notice once per number.
    """
    if not _on_postgresql():
        return  # waiters poll the change numbers on other databases
    if getattr(store, "_noticed_change_seq", None) == store.change_seq:
        return  # sent already, by the statement that took this number (and rolled back with it, if it was)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{store.public_id} {store.change_seq}"])


def stores_moved(seen: Mapping[str, int]) -> bool:
    """True when any of the stores has a change number beyond the one seen (one small query)."""
    if not seen:
        return False
    rows = Store.objects.filter(public_id__in=list(seen)).values_list("public_id", "change_seq")
    return any(seq > seen[sid] for sid, seq in rows)


class _Waiter:
    """One waiting request: the stores it may see, with the numbers it has seen, and how to wake it."""

    __slots__ = ("seen", "wake", "woken")

    def __init__(self, seen: Mapping[str, int], wake: Callable[[], None]) -> None:
        self.seen = dict(seen)
        self.wake = wake
        self.woken = False


class _Hub:
    """The process's one listening connection and the waiters it wakes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_store: dict[str, set[_Waiter]] = {}
        self._latest: dict[str, int] = {}  # the newest number heard per store since listening began
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.listening = threading.Event()  # set while the LISTEN connection is up

    # Waiters.

    def add(self, waiter: _Waiter) -> None:
        with self._lock:
            for sid in waiter.seen:
                self._by_store.setdefault(sid, set()).add(waiter)
            heard = any(self._latest.get(sid, -1) > seq for sid, seq in waiter.seen.items())
        if heard:
            self._wake(waiter)

    def remove(self, waiter: _Waiter) -> None:
        with self._lock:
            for sid in waiter.seen:
                waiters = self._by_store.get(sid)
                if waiters is not None:
                    waiters.discard(waiter)
                    if not waiters:
                        del self._by_store[sid]

    def waiting(self) -> int:
        """How many requests wait now (for the benchmark's figures)."""
        with self._lock:
            return len({w for ws in self._by_store.values() for w in ws})

    def dispatch(self, store_id: str, seq: int) -> None:
        with self._lock:
            if seq > self._latest.get(store_id, -1):
                self._latest[store_id] = seq
            due = [w for w in self._by_store.get(store_id, ()) if seq > w.seen[store_id]]
        for waiter in due:
            self._wake(waiter)

    @staticmethod
    def _wake(waiter: _Waiter) -> None:
        if not waiter.woken:
            waiter.woken = True
            waiter.wake()

    # The listening thread.

    def start(self) -> None:
        """Start listening (once per process, on the first wait); a no-op off PostgreSQL."""
        if not _on_postgresql():
            return
        with self._lock:
            if self._stop.is_set() or (self._thread is not None and self._thread.is_alive()):
                return
            self._thread = threading.Thread(target=self._listen, name="change-notices", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop listening for good, close the connection, and answer every waiter at once with what
        it has; later requests are answered without waiting (tests, before their database is dropped)."""
        self._stop.set()
        thread = self._thread
        if thread is not None:
            thread.join(timeout=5)
        self._thread = None
        self.listening.clear()
        with self._lock:
            waiters = {w for ws in self._by_store.values() for w in ws}
        for waiter in waiters:
            self._wake(waiter)

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def _listen(self) -> None:
        import psycopg  # the PostgreSQL driver Django uses here; absent on an SQLite-only install

        params = connections["default"].get_connection_params()
        params = {k: v for k, v in params.items() if k not in ("cursor_factory", "context", "prepare_threshold")}
        while not self._stop.is_set():
            try:
                with psycopg.connect(**params, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    while not self._stop.is_set():
                        for notice in conn.notifies(timeout=0.5):
                            store_id, _, seq = notice.payload.partition(" ")
                            with contextlib.suppress(ValueError):
                                self.dispatch(store_id, int(seq))
            except Exception as exc:  # the database went away: waiters poll until it is back
                log.warning("change notices: listening stopped (%s); trying again", exc)
            self.listening.clear()
            self._stop.wait(RECONNECT_SECONDS)


hub = _Hub()


def stop_listening(drain_seconds: float = 5.0) -> None:
    """Close this process's listening connection, if it has one, and let held requests finish."""
    hub.stop()
    deadline = time.monotonic() + drain_seconds
    while hub.waiting() and time.monotonic() < deadline:
        time.sleep(0.02)


def _step(remaining: float) -> float:
    """How long to sleep before looking at the change numbers again (when not woken)."""
    if not _on_postgresql():
        return min(remaining, POLL_SECONDS)
    return remaining if hub.listening.is_set() else min(remaining, FALLBACK_POLL_SECONDS)


async def wait_for_store_changes(seen: Mapping[str, int], timeout: float,
                                 run_sync: Callable[[Callable[[], bool]], Awaitable[bool]]) -> bool:
    """Wait on the event loop until one of the stores moves past the number seen, or ``timeout``
    seconds pass; True when one moved. ``run_sync`` runs a small database read off the loop (in
    a bounded pool): the only reads are one look right after registering, which closes the gap
    between the caller's own read and the registration, and the polls where there is no notice.
    """
    if hub.stopped:
        return False
    loop = asyncio.get_running_loop()
    event = asyncio.Event()
    waiter = _Waiter(seen, lambda: loop.call_soon_threadsafe(event.set))
    hub.start()
    hub.add(waiter)
    try:
        if await run_sync(lambda: _fresh(stores_moved, seen)):
            return True
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            step = _step(remaining)
            try:
                await asyncio.wait_for(event.wait(), step)
                return not hub.stopped  # stopped: answered with what it has, no further read
            except TimeoutError:
                if step < remaining and await run_sync(lambda: _fresh(stores_moved, seen)):
                    return True
    finally:
        hub.remove(waiter)


def wait_for_store_changes_blocking(seen: Mapping[str, int], timeout: float) -> bool:
    """``wait_for_store_changes`` for a WSGI worker thread, which is held for the request anyway."""
    if hub.stopped:
        return False
    event = threading.Event()
    waiter = _Waiter(seen, event.set)
    hub.start()
    hub.add(waiter)
    try:
        if stores_moved(seen):
            return True
        if _on_postgresql() and not connection.in_atomic_block:
            connection.close()  # not held while waiting; the answer's read opens one again
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            step = _step(remaining)
            if event.wait(step):
                return not hub.stopped  # stopped: answered with what it has, no further read
            if step < remaining and stores_moved(seen):
                return True
    finally:
        hub.remove(waiter)


def _fresh(fn: Callable[[Mapping[str, int]], bool], seen: Mapping[str, int]) -> bool:
    """Run a read in a pool thread, on a connection opened for it and closed after: an idle pool
    thread holds no database connection."""
    close_old_connections()
    try:
        return fn(seen)
    finally:
        connection.close()
