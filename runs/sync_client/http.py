"""The console's HTTP API as `memory-sync` needs it: JSON over urllib, errors with their reason code."""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

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
    """Requests to one console with one token. ``url`` is the console's root (the API is under /api/)."""

    def __init__(self, url: str, token: str, *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.root = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def request(self, method: str, path: str, *, query: dict[str, Any] | None = None,
                body: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send one request to ``/api`` + path and return the JSON answer, or raise ApiError."""
        url = f"{self.root}/api{path}"
        if query:
            url += "?" + urllib.parse.urlencode({k: v for k, v in query.items() if v is not None})
        data = None
        headers = {
            "Authorization": f"Bearer {self.token}",
            "Accept": "application/json",
            "User-Agent": USER_AGENT,
        }
        if body is not None or method in ("POST", "DELETE"):
            data = json.dumps(body or {}).encode("utf-8")
            headers["Content-Type"] = "application/json"
        try:
            req = urllib.request.Request(url, data=data, method=method, headers=headers)
            with urllib.request.urlopen(req, timeout=self.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            raise _api_error(exc) from None
        except ValueError as exc:  # not a URL urllib can open (the folder's state names a bad address)
            raise ApiError(None, f"the console's address {self.root!r} cannot be used ({exc})") from None
        except (OSError, http.client.HTTPException) as exc:  # URLError, timeouts and resets are OSErrors
            reason = getattr(exc, "reason", exc)
            raise ApiError(None, f"the console at {self.root} did not answer ({reason})") from None
        try:
            answer = json.loads(raw.decode("utf-8")) if raw else {}
        except ValueError:
            raise ApiError(502, "the console's answer was not JSON") from None
        if not isinstance(answer, dict):
            raise ApiError(502, "the console's answer was not a JSON object")
        return answer

    def get(self, path: str, **query: Any) -> dict[str, Any]:
        return self.request("GET", path, query=query or None)

    def post(self, path: str, body: dict[str, Any], **query: Any) -> dict[str, Any]:
        return self.request("POST", path, body=body, query=query or None)

    def delete(self, path: str, **query: Any) -> dict[str, Any]:
        return self.request("DELETE", path, query=query or None)


def _api_error(exc: urllib.error.HTTPError) -> ApiError:
    try:
        raw = exc.read()
    except OSError:
        raw = b""
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
    message = error.get("message") if isinstance(error.get("message"), str) else f"HTTP {exc.code} {exc.reason}"
    return ApiError(exc.code, message, code=code, error_type=error.get("type"), body=body)
