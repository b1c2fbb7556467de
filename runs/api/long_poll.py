"""The run change feed's long-poll: ``GET /api/v1/runs/{id}/changes?cursor=...&wait=<seconds>``.

The request is held until a change the run may see is committed, or ``wait`` seconds pass (at
most ``MAX_WAIT_SECONDS``), and then answered exactly as without ``wait``. Every answer to a
request with a valid ``wait`` carries ``memory-console-wait: <seconds>``, so a client can tell a
console that holds requests from one that ignores the parameter.

Served under ASGI (uvicorn), ``HoldChanges`` wraps the whole Django application: it asks the
view once, and when there is nothing new it waits on the event loop, outside Django (no thread,
no database connection held), then asks the view again. The view itself sees the request marked
as held outside (``HELD``) and answers at once. Served under WSGI (``runserver``, gunicorn), where
a worker thread is held for the request anyway, the view waits itself.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async

from stores.errors import InvalidRequest
from stores.services.change_notices import wait_for_store_changes

from ..selectors import decode_change_cursor

MAX_WAIT_SECONDS = 30.0
WAIT_HEADER = "memory-console-wait"
HELD = "memory_console.changes_held"  # the ASGI scope key that says the wait happens outside the view
CHANGES_PATH = re.compile(r"/api/v1/runs/[^/]+/changes")

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


def wait_seconds(raw: str | None) -> float | None:
    """The ``wait`` parameter in seconds (None when absent); InvalidRequest (400) when it is not
    a number from 0 to 30."""
    if raw is None:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not 0 <= value <= MAX_WAIT_SECONDS:  # NaN fails this too
        raise InvalidRequest(
            f"`wait` must be a number of seconds from 0 to {MAX_WAIT_SECONDS:g} (how long to hold the request "
            f"for a change); not {raw!r}."
        )
    return value


def held_outside(request: Any) -> bool:
    """True when ``HoldChanges`` does the waiting for this request (the view answers at once)."""
    scope = getattr(request, "scope", None)
    return bool(scope and scope.get(HELD))


def nothing_new(answer: dict[str, Any]) -> bool:
    return not answer.get("changes") and not answer.get("more")


def _run_in_pool(fn: Callable[[], bool]) -> Awaitable[bool]:
    # The shared, bounded executor, never a thread per request: a waiting request holds none.
    return sync_to_async(fn, thread_sensitive=False)()


class HoldChanges:
    """ASGI middleware: holds a waiting change-feed request on the event loop, between two answers
    of the Django view, so a hundred waiting folders hold no thread and no database connection."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        wait = self._wait(scope)
        if not wait:
            await self.app(scope, receive, send)
            return
        held = {**scope, HELD: True}
        first = await self._ask(held)
        seen = self._seen(first)
        if seen is None:  # an error, or changes already: answered as is
            await self._send(first, send)
            return
        if not await wait_for_store_changes(seen, wait, _run_in_pool):
            await self._send(first, send)  # nothing came: the first answer still holds
            return
        await self._send(await self._ask(held), send)

    @staticmethod
    def _wait(scope: Scope) -> float | None:
        if scope.get("type") != "http" or scope.get("method") != "GET" or not CHANGES_PATH.fullmatch(
                scope.get("path", "")):
            return None
        values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("wait")
        try:
            return wait_seconds(values[-1]) if values else None
        except InvalidRequest:
            return None  # the view answers the 400

    async def _ask(self, scope: Scope) -> list[Message]:
        """One answer of the application, kept whole (a change-feed answer is one small JSON body)."""
        sent: list[Message] = []
        delivered = False

        async def receive() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await _forever()
            return {"type": "http.disconnect"}

        async def collect(message: Message) -> None:
            sent.append(message)

        await self.app(scope, receive, collect)
        return sent

    @staticmethod
    def _seen(messages: list[Message]) -> dict[str, int] | None:
        """The store change numbers a 200 answer with nothing new stands at, else None."""
        start = next((m for m in messages if m["type"] == "http.response.start"), None)
        if start is None or start.get("status") != 200:
            return None
        body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body")
        try:
            answer = json.loads(body)
            return decode_change_cursor(answer["cursor"]) if nothing_new(answer) else None
        except (ValueError, KeyError, TypeError, InvalidRequest):
            return None

    @staticmethod
    async def _send(messages: list[Message], send: Send) -> None:
        for message in messages:
            await send(message)


async def _forever() -> None:
    await asyncio.Event().wait()
