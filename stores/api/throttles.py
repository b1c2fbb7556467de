"""Calls per token a minute: writes and reads counted apart, in Django's cache.

The count lives in the cache (Redis when REDIS_URL is set), so every instance behind a load
balancer counts against the same budget. A fixed one-minute window per token: one atomic
`incr` per call (an `add` opens the window), where DRF's own throttle reads and rewrites a list
of every call's time.
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from stores.console_checks.request import Writer

logger = logging.getLogger(__name__)


def token_ident(writer: Writer) -> str:
    """What a budget is kept for: the token, that is the run (its token) or the API key."""
    if writer.run is not None:
        return f"run:{writer.run.public_id}"
    if writer.api_key_id:
        return f"key:{writer.api_key_id}"
    return writer.key


class TokenRateThrottle(SimpleRateThrottle):
    """A per-token budget for one kind of call (``writes`` or not) in a fixed one-minute window."""

    writes: bool
    cache = cache
    cache_format = "api-throttle:%(scope)s:%(ident)s:%(window)d"

    def __init__(self) -> None:
        # Rates are read per call, so settings changed at run time (and in tests) apply at once.
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        self.wait_seconds: float | None = None

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request, view) -> bool:
        writer = request.auth
        if self.rate is None or not isinstance(writer, Writer) or (request.method not in SAFE_METHODS) != self.writes:
            return True
        now = self.timer()
        window = int(now // self.duration)
        key = self.cache_format % {"scope": self.scope, "ident": token_ident(writer), "window": window}
        try:
            count = self._count(key)
        except Exception:  # noqa: BLE001  (a cache outage must not take the API down with it)
            logger.warning("API throttle: the cache did not answer; the call is let through", exc_info=True)
            return True
        if count <= self.num_requests:
            return True
        self.wait_seconds = (window + 1) * self.duration - now
        return False

    def _count(self, key: str) -> int:
        """This call's number in the window: incr first (the common case), add when the window is new."""
        try:
            return self.cache.incr(key)
        except ValueError:  # no call yet in this window
            if self.cache.add(key, 1, timeout=self.duration + 1):
                return 1
            return self.cache.incr(key)  # another instance started the window at the same moment

    def wait(self) -> float | None:
        return self.wait_seconds


class TokenWriteThrottle(TokenRateThrottle):
    """POST, PATCH and DELETE calls per token a minute (API_WRITES_PER_MINUTE, default 600)."""

    scope = "token_writes"
    writes = True


class TokenReadThrottle(TokenRateThrottle):
    """GET calls per token a minute (API_READS_PER_MINUTE, default 6,000)."""

    scope = "token_reads"
    writes = False
