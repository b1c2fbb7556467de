"""A thin client for the few Jira Cloud REST endpoints the console uses.

Built on ``requests`` rather than the ``jira`` package: the console needs three read-only
endpoints, one error type for every way Jira can fail (so the checks can refuse cleanly), and a
strict timeout on every call. The ``jira`` package pulls in much more (OAuth, multipart upload,
its own retry and session logic, a resource model) and raises many error types, some after
retrying for longer than an agent's write may wait.

This module speaks HTTP only: it returns typed results and knows nothing about models or caches
(``jira_link.services`` does). Settings are read when a request is made, never at import time.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

import requests
from django.conf import settings

logger = logging.getLogger(__name__)

API = "/rest/api/3"
# The fields every issue result needs; callers may ask for more, never for fewer.
ISSUE_FIELDS = ("project", "assignee", "status")
# Jira's answers here are small JSON documents; anything far bigger is not Jira talking.
MAX_RESPONSE_BYTES = 10 * 1024 * 1024
SEARCH_PAGE_SIZE = 100  # Jira Cloud's cap for /search/jql when fields are requested
PROJECT_PAGE_SIZE = 50  # Jira Cloud's cap for /project/search

# A Jira issue key: a project key (a letter, then letters, digits or underscores) and a number.
_ISSUE_KEY = re.compile(r"^[A-Z][A-Z0-9_]*-[1-9][0-9]*$")


class JiraUnavailable(Exception):
    """Jira could not give a usable answer: down, slow, wrong, or the console is not configured.

    The message says which, in words safe to show an agent or a person: it never holds
    credentials or the body Jira sent.
    """


@dataclass(frozen=True, slots=True)
class JiraIssue:
    """An issue as Jira reports it now."""

    key: str
    project_key: str
    assignee_account_id: str | None
    status: str


@dataclass(frozen=True, slots=True)
class JiraProjectSummary:
    """A project listed by Jira."""

    key: str
    name: str


@dataclass(frozen=True, slots=True)
class JiraConfig:
    """Where Jira is and how to sign in, read from settings when first needed."""

    base_url: str
    user: str
    api_token: str
    timeout_seconds: float

    def __repr__(self) -> str:  # keep the token out of logs and tracebacks
        return f"JiraConfig(base_url={self.base_url!r}, user={self.user!r}, timeout_seconds={self.timeout_seconds})"

    @classmethod
    def from_settings(cls) -> JiraConfig:
        """Read and check the JIRA_* settings; raise JiraUnavailable naming what is missing."""
        base_url = str(getattr(settings, "JIRA_URL", "") or "").strip().rstrip("/")
        user = str(getattr(settings, "JIRA_USER", "") or "").strip()
        token = str(getattr(settings, "JIRA_API_TOKEN", "") or "").strip()
        missing = [
            name
            for name, value in (("JIRA_URL", base_url), ("JIRA_USER", user), ("JIRA_API_TOKEN", token))
            if not value
        ]
        if missing:
            raise JiraUnavailable(f"Jira is not configured: {', '.join(missing)} not set")
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise JiraUnavailable("Jira is not configured: JIRA_URL is not an http(s) address")
        try:
            timeout = float(getattr(settings, "JIRA_TIMEOUT_SECONDS", 3))
        except (TypeError, ValueError):
            raise JiraUnavailable("Jira is not configured: JIRA_TIMEOUT_SECONDS is not a number") from None
        if not timeout > 0:
            raise JiraUnavailable("Jira is not configured: JIRA_TIMEOUT_SECONDS must be positive")
        return cls(base_url=base_url, user=user, api_token=token, timeout_seconds=timeout)


def normalize_issue_key(key: str) -> str | None:
    """The key in Jira's canonical upper case, or None when it cannot name a Jira issue.

    Jira accepts keys in any case; a malformed key is never put into a URL.
    """
    if not isinstance(key, str):
        return None
    key = key.strip().upper()
    return key if _ISSUE_KEY.match(key) else None


class JiraClient:
    """Read-only calls to Jira Cloud's REST API v3, each bounded by JIRA_TIMEOUT_SECONDS.

    One instance per unit of work (a lookup, a sync): it holds a ``requests.Session`` so the
    pages of one listing reuse a connection, and sessions are not shared between threads.
    """

    def __init__(self, config: JiraConfig | None = None) -> None:
        self._config = config
        self._session: requests.Session | None = None

    @property
    def config(self) -> JiraConfig:
        """The settings, read and checked on first use."""
        if self._config is None:
            self._config = JiraConfig.from_settings()
        return self._config

    def close(self) -> None:
        """Close the pooled connection, if any."""
        if self._session is not None:
            self._session.close()
            self._session = None

    def __enter__(self) -> JiraClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # Endpoints.

    def get_issue(self, key: str) -> JiraIssue | None:
        """The issue with this key, or None when Jira does not know it (404) or the key is malformed.

        An unknown ticket is an answer, not a failure: the run API tells it apart from Jira being
        unavailable (``unknown_ticket`` against ``jira_unavailable``), so it is None here and not a
        subclass of JiraUnavailable that a caller catching JiraUnavailable would mistake for an outage.
        Raises JiraUnavailable for everything else that is not a usable answer.
        """
        canonical = normalize_issue_key(key)
        if canonical is None:
            return None
        data = self._get_json(
            f"{API}/issue/{quote(canonical, safe='')}",
            params={"fields": ",".join(ISSUE_FIELDS)},
            none_on_404=True,
        )
        if data is None:
            return None
        return _parse_issue(data)

    def search_issues(
        self, jql: str, fields: Iterable[str] = ISSUE_FIELDS, *, page_size: int = SEARCH_PAGE_SIZE
    ) -> Iterator[JiraIssue]:
        """Every issue matching the JQL, fetched page by page from ``/search/jql``.

        Pages follow ``nextPageToken`` until Jira gives none (or says ``isLast``). A token seen twice
        raises JiraUnavailable rather than looping for ever.
        """
        wanted = list(dict.fromkeys([*ISSUE_FIELDS, *fields]))
        token: str | None = None
        seen_tokens: set[str] = set()
        while True:
            params: dict[str, Any] = {"jql": jql, "fields": ",".join(wanted), "maxResults": page_size}
            if token:
                params["nextPageToken"] = token
            data = self._get_json(f"{API}/search/jql", params=params) or {}  # None only with none_on_404
            issues = data.get("issues")
            if not isinstance(issues, list):
                raise JiraUnavailable("Jira's search answer had no issue list")
            for raw in issues:
                yield _parse_issue(raw)
            token = data.get("nextPageToken")
            if data.get("isLast") is True or not token:
                return
            if not isinstance(token, str) or token in seen_tokens:
                raise JiraUnavailable("Jira's search paging did not advance")
            seen_tokens.add(token)

    def list_projects(self, *, page_size: int = PROJECT_PAGE_SIZE) -> Iterator[JiraProjectSummary]:
        """Every project the Jira user can see, fetched page by page from ``/project/search``."""
        start_at = 0
        while True:
            data = (
                self._get_json(f"{API}/project/search", params={"startAt": start_at, "maxResults": page_size})
                or {}  # None only with none_on_404
            )
            values, is_last = data.get("values"), data.get("isLast")
            if not isinstance(values, list) or not isinstance(is_last, bool):
                raise JiraUnavailable("Jira's project list lacked values or isLast")
            for raw in values:
                yield _parse_project(raw)
            if is_last:
                return
            if not values:
                raise JiraUnavailable("Jira's project paging did not advance")
            start_at += len(values)

    # HTTP.

    def _get_json(
        self, path: str, *, params: dict[str, Any], none_on_404: bool = False
    ) -> dict[str, Any] | None:
        """GET a JSON object, within the timeout; every failure becomes JiraUnavailable."""
        config = self.config
        if self._session is None:
            self._session = requests.Session()
            self._session.auth = (config.user, config.api_token)
            self._session.headers["Accept"] = "application/json"
        timeout = config.timeout_seconds
        # requests' read timeout bounds each wait for bytes, not the whole answer; the deadline
        # below bounds the whole answer, so a server dripping bytes is as slow as a silent one.
        deadline = time.monotonic() + timeout
        started = time.monotonic()
        try:
            with self._session.get(
                config.base_url + path,
                params=params,
                timeout=(timeout, timeout),
                allow_redirects=False,  # a redirect means JIRA_URL is wrong; do not follow it with credentials
                stream=True,
            ) as response:
                status = response.status_code
                body = bytearray()
                for chunk in response.iter_content(chunk_size=65536):
                    body += chunk
                    if len(body) > MAX_RESPONSE_BYTES:
                        raise JiraUnavailable("Jira's answer was too large")
                    if time.monotonic() > deadline:
                        raise JiraUnavailable(f"Jira did not answer within {timeout:g} s")
        except requests.Timeout:
            raise JiraUnavailable(f"Jira did not answer within {timeout:g} s") from None
        except requests.RequestException as exc:
            # A timeout while reading the body surfaces as a ConnectionError wrapping a read timeout.
            if "timed out" in str(exc).lower():
                raise JiraUnavailable(f"Jira did not answer within {timeout:g} s") from None
            raise JiraUnavailable("Jira could not be reached") from None
        logger.debug("Jira GET %s answered %s in %.3f s", path, status, time.monotonic() - started)
        if status == 404 and none_on_404:
            return None
        if not 200 <= status < 300:
            raise JiraUnavailable(f"Jira answered HTTP {status}")
        try:
            data = json.loads(bytes(body))
        except ValueError:
            raise JiraUnavailable("Jira's answer was not JSON") from None
        if not isinstance(data, dict):
            raise JiraUnavailable("Jira's answer was not a JSON object")
        return data


def _parse_issue(raw: Any) -> JiraIssue:
    """An issue from Jira's JSON, or JiraUnavailable when a field the console relies on is missing."""
    if not isinstance(raw, dict):
        raise JiraUnavailable("Jira's issue was not a JSON object")
    key = raw.get("key")
    fields = raw.get("fields")
    if not isinstance(key, str) or not key or not isinstance(fields, dict):
        raise JiraUnavailable("Jira's issue lacked its key or fields")
    project = fields.get("project")
    if not isinstance(project, dict) or not isinstance(project.get("key"), str) or not project["key"]:
        raise JiraUnavailable(f"Jira's issue {key} lacked its project")
    if "assignee" not in fields:
        # Absent is not the same as unassigned (null): Jira did not say, so do not guess.
        raise JiraUnavailable(f"Jira's issue {key} lacked its assignee field")
    assignee = fields["assignee"]
    account_id: str | None = None
    if assignee is not None:
        if (
            not isinstance(assignee, dict)
            or not isinstance(assignee.get("accountId"), str)
            or not assignee["accountId"]
        ):
            raise JiraUnavailable(f"Jira's issue {key} had an assignee without an accountId")
        account_id = assignee["accountId"]
    status = fields.get("status")
    if not isinstance(status, dict) or not isinstance(status.get("name"), str):
        raise JiraUnavailable(f"Jira's issue {key} lacked its status")
    return JiraIssue(
        key=key, project_key=project["key"], assignee_account_id=account_id, status=status["name"]
    )


def _parse_project(raw: Any) -> JiraProjectSummary:
    """A project from Jira's JSON, or JiraUnavailable when its key is missing."""
    if not isinstance(raw, dict) or not isinstance(raw.get("key"), str) or not raw["key"]:
        raise JiraUnavailable("Jira's project lacked its key")
    name = raw.get("name")
    return JiraProjectSummary(key=raw["key"], name=name if isinstance(name, str) else "")
