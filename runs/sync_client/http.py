"""The console's HTTP API as `memory-sync` needs it: JSON over `requests`, errors with their reason code."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import requests

USER_AGENT = "memory-sync/1"
DEFAULT_TIMEOUT = 30.0
# Answers that may succeed when asked again later: the change stays in the folder until then.
TRANSIENT_STATUSES = {408, 425, 429}
TRANSIENT_CODES = {"jira_unavailable"}


class ApiError(Exception):
    """A failed request: the HTTP status (None when the console did not answer), code and message."""

    def __init__(self, status: int | None, message: str, *, code: str | None = None,
                 error_type: str | None = None, body: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.error_type = error_type
        self.body = body or {}

    @property
    def transient(self) -> bool:
        """No answer, a rate limit, a server error or Jira down: keep the change and retry next pass."""
        return (
            self.status is None
            or self.status in TRANSIENT_STATUSES
            or self.status >= 500
            or self.code in TRANSIENT_CODES
        )

    @property
    def unreachable(self) -> bool:
        """The console did not answer at all; the rest of the pass would fail the same way."""
        return self.status is None

    @property
    def error(self) -> dict[str, Any]:
        """The envelope's ``error`` object (empty when there was none)."""
        error = self.body.get("error")
        return error if isinstance(error, dict) else {}

    def __str__(self) -> str:
        where = f"HTTP {self.status}" if self.status is not None else "no answer"
        return f"{where}{' ' + self.code if self.code else ''}: {self.message}"


class Api:
    """Requests to one console with one token. ``url`` is the console's root (the API is under /api/).

    One ``requests`` session per Api keeps the connection open between requests of a pass; use one
    Api per thread (a session is not shared across threads).
    """

    def __init__(self, url: str, token: str, *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.root = url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.session = requests.Session()
        self.session.headers.update({
            "Authorization": f"Bearer {token}",
            "Accept": "application/json",
            "User-Agent": USER_AGENT,
        })

    def request(self, method: str, path: str, *, query: dict[str, Any] | None = None,
                body: dict[str, Any] | None = None, timeout: float | None = None) -> dict[str, Any]:
        """Send one request to ``/api`` + path and return the JSON answer, or raise ApiError."""
        return self.exchange(method, path, query=query, body=body, timeout=timeout)[0]

    def exchange(self, method: str, path: str, *, query: dict[str, Any] | None = None,
                 body: dict[str, Any] | None = None,
                 timeout: float | None = None) -> tuple[dict[str, Any], Mapping[str, str]]:
        """Like ``request``, and the answer's headers too."""
        url = f"{self.root}/api{path}"
        params = {k: v for k, v in query.items() if v is not None} if query else None
        data = None
        headers = {}
        if body is not None or method in ("POST", "DELETE"):
            data = json.dumps(body or {}).encode("utf-8")
            headers["Content-Type"] = "application/json"
        try:
            try:
                response = self.session.request(method, url, params=params, data=data, headers=headers,
                                                timeout=timeout or self.timeout, allow_redirects=False)
            except requests.ConnectionError:
                if method != "GET":
                    raise
                # A kept-alive connection the console closed meanwhile: a read is safe to ask again, once.
                response = self.session.request(method, url, params=params, headers=headers,
                                                timeout=timeout or self.timeout, allow_redirects=False)
        except (requests.exceptions.InvalidURL, requests.exceptions.MissingSchema,
                requests.exceptions.InvalidSchema, ValueError) as exc:
            # Not a URL that can be opened (the folder's state names a bad address).
            raise ApiError(None, f"the console's address {self.root!r} cannot be used ({exc})") from None
        except (requests.RequestException, OSError) as exc:  # refused, reset, timed out
            raise ApiError(None, f"the console at {self.root} did not answer ({_reason(exc)})") from None
        raw = response.content
        if response.status_code >= 400:
            raise _api_error(response.status_code, response.reason, raw)
        try:
            answer = json.loads(raw.decode("utf-8")) if raw else {}
        except ValueError:
            raise ApiError(502, "the console's answer was not JSON") from None
        if not isinstance(answer, dict):
            raise ApiError(502, "the console's answer was not a JSON object")
        return answer, response.headers

    def get(self, path: str, **query: Any) -> dict[str, Any]:
        return self.request("GET", path, query=query or None)

    def post(self, path: str, body: dict[str, Any], **query: Any) -> dict[str, Any]:
        return self.request("POST", path, body=body, query=query or None)

    def delete(self, path: str, **query: Any) -> dict[str, Any]:
        return self.request("DELETE", path, query=query or None)

    def close(self) -> None:
        self.session.close()


def _reason(exc: BaseException) -> str:
    """The innermost cause of a failed connection, as urllib would have named it."""
    while exc.args and isinstance(exc.args[0], BaseException) and exc.args[0] is not exc:
        exc = exc.args[0]
    return str(exc)


def _api_error(status: int, reason: str, raw: bytes) -> ApiError:
    body: dict[str, Any] = {}
    try:
        parsed = json.loads(raw.decode("utf-8")) if raw else {}
        if isinstance(parsed, dict):
            body = parsed
    except (ValueError, UnicodeDecodeError):
        pass
    error = body.get("error") if isinstance(body.get("error"), dict) else {}
    details = error.get("details") if isinstance(error.get("details"), dict) else {}
    code = details.get("error_code") if isinstance(details.get("error_code"), str) else None
    message = error.get("message") if isinstance(error.get("message"), str) else f"HTTP {status} {reason}"
    return ApiError(status, message, code=code, error_type=error.get("type"), body=body)
