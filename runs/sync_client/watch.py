"""Waiting between `watch` passes.

The console holds a change-feed request (``wait``) until a change the run may see is committed,
so a console change reaches the folder as soon as it is saved and an idle folder costs one held
request at a time instead of a pass every interval. The held request runs in a background thread
with its own connection; meanwhile the folder is looked at (sizes and times, no reads) so a local
change is pushed at once. A console that answers without holding (no ``memory-console-wait``
header on the answer) gets a pass every interval instead, as does a pass that left a change
unsaved (the console away), until it is saved.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from .http import Api, ApiError

HELD_SECONDS = 25.0  # each held request; the console holds at most 30 s
WAIT_HEADER = "memory-console-wait"
LOOK_SECONDS = 0.2  # how often the folder is looked at for local changes while a request is held
LOOK_SHARE = 0.05  # looking takes at most this share of the time, however large the folder
RETRY_SECONDS = 2.0


class HeldFeed:
    """One held change-feed request at a time, in a background thread, for the cursor last asked.

    ``arrived`` is set when an answer with changes came back (``take`` hands it over, with the
    cursor it was asked with), or when the console turned out not to hold requests
    (``holds`` False).
    """

    def __init__(self, url: str, token: str, run_id: str, *, held_seconds: float = HELD_SECONDS) -> None:
        self.held_seconds = held_seconds
        self.api = Api(url, token, timeout=held_seconds + 15)
        self.path = f"/v1/runs/{run_id}/changes"
        self.arrived = threading.Event()
        self.holds: bool | None = None  # unknown until the first answer
        self._cond = threading.Condition()
        self._cursor: str | None = None
        self._answer: tuple[str, dict[str, Any]] | None = None
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="memory-sync-held-feed", daemon=True)
        self._thread.start()

    def ask(self, cursor: str) -> None:
        """Hold a request for changes after ``cursor`` (replacing the one asked before)."""
        with self._cond:
            self._cursor = cursor
            self._cond.notify()

    def take(self) -> tuple[str, dict[str, Any]] | None:
        """The answer that arrived (with the cursor it was asked with), if any; clears ``arrived``."""
        with self._cond:
            answer, self._answer = self._answer, None
            if self.holds is not False:
                self.arrived.clear()
            return answer

    def stop(self) -> None:
        """Ask nothing more. A request still held ends by itself within its wait (the thread is a daemon)."""
        with self._cond:
            self._stopped = True
            self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._cursor is None and not self._stopped:
                    self._cond.wait()
                if self._stopped:
                    return
                cursor = self._cursor
            try:
                answer, headers = self.api.exchange("GET", self.path, query={
                    "cursor": cursor, "wait": f"{self.held_seconds:g}"})
            except ApiError as exc:
                if exc.transient:
                    self._pause(RETRY_SECONDS)  # the console away: passes keep the folder meanwhile
                    continue
                self._settle(None, holds=False)  # refused (a console that rejects `wait`): plain passes
                return
            if WAIT_HEADER not in headers:
                self._settle((cursor, answer), holds=False)  # answered at once: a console that does not hold
                return
            if answer.get("changes") or answer.get("more") or answer.get("cursor") != cursor:
                self._settle((cursor, answer), holds=True)

    def _settle(self, answer: tuple[str, dict[str, Any]] | None, *, holds: bool) -> None:
        with self._cond:
            self.holds = holds
            self._answer = answer
            if answer is not None and self._cursor == answer[0]:
                self._cursor = None  # wait for the cursor the next pass leaves
            self.arrived.set()

    def _pause(self, seconds: float) -> None:
        with self._cond:
            self._cond.wait_for(lambda: self._stopped, timeout=seconds)


def wait_for_work(stopped: Callable[[], bool], feed: HeldFeed, folder_changed: Callable[[], bool]) -> None:
    """Return when the console's answer arrived, the folder changed, or the watch is stopped."""
    next_look = time.monotonic() + LOOK_SECONDS
    while not stopped():
        if feed.arrived.wait(0.05):
            return
        now = time.monotonic()
        if now >= next_look:
            changed = folder_changed()
            cost = time.monotonic() - now
            if changed:
                return
            next_look = time.monotonic() + max(LOOK_SECONDS, cost / LOOK_SHARE)
