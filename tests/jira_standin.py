"""A Jira Cloud stand-in on 127.0.0.1, as a pytest plugin: the fixture ``jira_standin``.

It serves the three endpoints the console calls (issue, search/jql, project/search) with JSON
shaped like Jira Cloud's recorded answers, checks basic auth, honours the ``fields`` parameter,
and pages as Jira does. It can also be down (its server stopped: connection refused), slow (every
answer held longer than the client's timeout) and wrong (500, HTML, JSON missing fields).

Tests talk HTTP to it through the console's real client; nothing of ours is mocked.

Register with ``pytest_plugins = ["tests.jira_standin"]`` in ``tests/conftest.py``.
"""

from __future__ import annotations

import base64
import json
import re
import secrets
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

__all__ = ["JiraStandIn", "jira_standin"]

API = "/rest/api/3"
DONE_STATUSES = {"Done", "Closed", "Resolved", "Won't Do"}
WRONG_KINDS = ("500", "html", "missing_fields")
_AVATARS = {
    size: f"https://avatar-management.example.test/{size}.png"
    for size in ("48x48", "24x24", "16x16", "32x32")
}


class _QuickStopHTTPServer(HTTPServer):
    """Polls for shutdown every 20 ms instead of 500 ms, so stopping (teardown, down()) is quick."""

    def thread_target(self) -> None:
        assert self.server is not None
        self.server.serve_forever(poll_interval=0.02)


class JiraStandIn:
    """A stateful Jira Cloud stand-in over pytest-httpserver's ``HTTPServer``.

    State: ``issues`` (by key) and ``projects`` (by key). Behaviour: ``down()``/``up()``,
    ``slow(seconds)``, ``wrong(kind)`` and ``healthy()``. Inspection: ``requests_count(path)``,
    ``jql_seen``. The raw server is ``server``, for one-off expectations
    (``server.expect_oneshot_request`` takes precedence over the stand-in's own handlers).
    """

    def __init__(self) -> None:
        self.server = _QuickStopHTTPServer(host="127.0.0.1", port=0, threaded=True)
        self.user = "console-bot@example.test"
        # Built at run time so no token-looking literal sits in the repository.
        self.token = "-".join(["standin", secrets.token_hex(12)])
        self.issues: dict[str, dict[str, Any]] = {}
        self.projects: dict[str, str] = {}
        self.search_page_cap = 100  # Jira may return fewer than maxResults; tests lower this to force paging
        self.project_page_cap = 50
        self.jql_seen: list[str] = []
        self._slow_seconds = 0.0
        self._wrong_kind: str | None = None
        self._good_answers_left = 0  # wrong(kind, after=n): this many good answers first
        self._lock = threading.Lock()
        self._next_id = 10001

    # Lifecycle.

    def start(self) -> None:
        """Start serving on a free port of 127.0.0.1 (the port is kept across down()/up())."""
        self.server.start()
        self._install_handlers()

    def stop(self) -> None:
        """Stop serving, if serving."""
        if self.server.is_running():
            self.server.stop()

    @property
    def url(self) -> str:
        """The base URL to put in JIRA_URL."""
        return f"http://127.0.0.1:{self.server.port}"

    def _install_handlers(self) -> None:
        self.server.clear_all_handlers()
        self.server.expect_request(re.compile(rf"^{API}/issue/[^/]+$"), method="GET").respond_with_handler(
            self._answer_issue
        )
        self.server.expect_request(f"{API}/search/jql", method="GET").respond_with_handler(
            self._answer_search
        )
        self.server.expect_request(f"{API}/project/search", method="GET").respond_with_handler(
            self._answer_projects
        )

    # State.

    def set_project(self, key: str, name: str | None = None) -> None:
        """Make a project visible to the console's Jira user."""
        self.projects[key] = name or f"{key.title()} project"

    def set_issue(
        self, key: str, project_key: str, assignee_account_id: str | None = None, status: str = "In Progress"
    ) -> None:
        """Create or change an issue (and make its project visible)."""
        if project_key not in self.projects:
            self.set_project(project_key)
        existing = self.issues.get(key)
        issue_id = existing["id"] if existing else str(self._take_id())
        self.issues[key] = {
            "id": issue_id,
            "key": key,
            "project_key": project_key,
            "assignee": assignee_account_id,
            "status": status,
        }

    def remove_issue(self, key: str) -> None:
        """Delete an issue: Jira answers 404 for it from now on."""
        self.issues.pop(key, None)

    def _take_id(self) -> int:
        self._next_id += 1
        return self._next_id

    # Behaviour.

    def down(self) -> None:
        """Stop the server: connections to its port are refused until up()."""
        self.stop()

    def up(self) -> None:
        """Serve again on the same port, healthy."""
        self.healthy()
        if not self.server.is_running():
            self.server.start()

    def slow(self, seconds: float) -> None:
        """Hold every answer this long before sending it."""
        self._slow_seconds = seconds

    def wrong(self, kind: str = "500", *, after: int = 0) -> None:
        """Answer wrongly: ``"500"`` (server error), ``"html"`` (a 200 HTML page) or ``"missing_fields"``.

        With ``after=n``, the next n answers are still good (to fail in the middle of paging).
        """
        if kind not in WRONG_KINDS:
            raise ValueError(f"kind must be one of {WRONG_KINDS}")
        with self._lock:
            self._wrong_kind = kind
            self._good_answers_left = after

    def healthy(self) -> None:
        """Answer promptly and correctly again."""
        with self._lock:
            self._slow_seconds = 0.0
            self._wrong_kind = None
            self._good_answers_left = 0

    def _current_wrong_kind(self) -> str | None:
        """The wrongness of this answer, counting down the good answers wrong(after=n) allows."""
        with self._lock:
            if self._wrong_kind is not None and self._good_answers_left > 0:
                self._good_answers_left -= 1
                return None
            return self._wrong_kind

    # Inspection.

    def requests_count(self, path: str) -> int:
        """How many requests have been answered for this path (query string ignored).

        A request still being held by slow() is counted once it has been answered.
        """
        return sum(1 for request, _response in self.server.log if request.path == path)

    @staticmethod
    def issue_path(key: str) -> str:
        """The path the console's client requests for an issue."""
        return f"{API}/issue/{key}"

    # Answers.

    def _json(self, data: Any, status: int = 200) -> Response:
        return Response(json.dumps(data), status=status, content_type="application/json;charset=UTF-8")

    def _preamble(self, request: Request) -> tuple[Response | None, str | None]:
        """Slowness, auth and wrongness, in the order Jira would show them: (early answer, wrong kind)."""
        delay = self._slow_seconds
        if delay:
            time.sleep(delay)
        auth = request.authorization
        if auth is None or auth.type != "basic" or auth.username != self.user or auth.password != self.token:
            message = "You are not authenticated. Authentication required to perform this operation."
            return self._json({"errorMessages": [message], "errors": {}}, status=401), None
        kind = self._current_wrong_kind()
        if kind == "500":
            return self._json({"errorMessages": ["Internal server error"], "errors": {}}, status=500), kind
        if kind == "html":
            page = Response(
                "<!DOCTYPE html><html><head><title>Atlassian</title></head>"
                "<body><h1>Your site is under maintenance</h1></body></html>",
                status=200,
                content_type="text/html;charset=UTF-8",
            )
            return page, kind
        return None, kind

    def _issue_json(
        self, issue: dict[str, Any], fields: list[str] | None, wrong_kind: str | None = None
    ) -> dict[str, Any]:
        base = self.url
        project_key = issue["project_key"]
        done = issue["status"] in DONE_STATUSES
        all_fields: dict[str, Any] = {
            "project": {
                "self": f"{base}{API}/project/{project_key}",
                "id": str(10000 + sorted(self.projects).index(project_key))
                if project_key in self.projects
                else "10000",
                "key": project_key,
                "name": self.projects.get(project_key, project_key),
                "projectTypeKey": "software",
                "simplified": False,
                "avatarUrls": _AVATARS,
            },
            "assignee": None
            if issue["assignee"] is None
            else {
                "self": f"{base}{API}/user?accountId={issue['assignee']}",
                "accountId": issue["assignee"],
                "avatarUrls": _AVATARS,
                "displayName": "Hosted Agent",
                "active": True,
                "timeZone": "Europe/London",
                "accountType": "app",
            },
            "status": {
                "self": f"{base}{API}/status/{'10001' if done else '3'}",
                "description": "",
                "iconUrl": f"{base}/images/icons/statuses/generic.png",
                "name": issue["status"],
                "id": "10001" if done else "3",
                "statusCategory": {
                    "self": f"{base}{API}/statuscategory/{3 if done else 4}",
                    "id": 3 if done else 4,
                    "key": "done" if done else "indeterminate",
                    "colorName": "green" if done else "yellow",
                    "name": "Done" if done else "In Progress",
                },
            },
        }
        wanted = (
            all_fields
            if fields is None
            else {name: all_fields[name] for name in fields if name in all_fields}
        )
        if wrong_kind == "missing_fields":
            wanted = {name: value for name, value in wanted.items() if name not in ("project", "assignee")}
        return {
            "expand": "renderedFields,names,schema,operations,editmeta,changelog,versionedRepresentations",
            "id": issue["id"],
            "self": f"{base}{API}/issue/{issue['id']}",
            "key": issue["key"],
            "fields": wanted,
        }

    @staticmethod
    def _fields_param(request: Request) -> list[str] | None:
        raw = request.args.get("fields")
        return None if raw is None else [name.strip() for name in raw.split(",") if name.strip()]

    def issue_response(
        self, key: str, fields: list[str] | None = None, wrong_kind: str | None = None
    ) -> Response:
        """Jira's answer for this issue as the stand-in's state is now (404 when unknown).

        Public so a test can capture an answer now and send it later, as a slow Jira would.
        """
        issue = self.issues.get(key.upper())
        if issue is None:
            return self._json(
                {
                    "errorMessages": ["Issue does not exist or you do not have permission to see it."],
                    "errors": {},
                },
                status=404,
            )
        return self._json(self._issue_json(issue, fields, wrong_kind))

    def _answer_issue(self, request: Request) -> Response:
        early, kind = self._preamble(request)
        if early is not None:
            return early
        return self.issue_response(request.path.rsplit("/", 1)[-1], self._fields_param(request), kind)

    def _matching_issues(self, jql: str) -> list[dict[str, Any]] | Response:
        """The issues a JQL of the shapes the console sends selects, or Jira's 400 for an unknown project."""
        found = re.search(r"project\s+in\s*\(([^)]*)\)", jql, re.IGNORECASE) or re.search(
            r"project\s*=\s*(\"?[A-Z0-9_]+\"?)", jql, re.IGNORECASE
        )
        keys = [part.strip().strip('"') for part in found.group(1).split(",")] if found else None
        for key in keys or []:
            if key not in self.projects:
                return self._json(
                    {
                        "errorMessages": [f"The value '{key}' does not exist for the field 'project'."],
                        "errors": {},
                        "warningMessages": [],
                    },
                    status=400,
                )
        open_only = re.search(r"statusCategory\s*!=\s*Done", jql, re.IGNORECASE) is not None
        return [
            issue
            for key, issue in sorted(self.issues.items())
            if (keys is None or issue["project_key"] in keys)
            and not (open_only and issue["status"] in DONE_STATUSES)
        ]

    def _answer_search(self, request: Request) -> Response:
        early, kind = self._preamble(request)
        if early is not None:
            return early
        jql = request.args.get("jql", "")
        self.jql_seen.append(jql)
        matching = self._matching_issues(jql)
        if isinstance(matching, Response):
            return matching
        page_size = min(int(request.args.get("maxResults", 50)), self.search_page_cap)
        token = request.args.get("nextPageToken")
        offset = json.loads(base64.urlsafe_b64decode(token.encode()))["o"] if token else 0
        page = matching[offset : offset + page_size]
        fields = self._fields_param(request)
        body: dict[str, Any] = {"issues": [self._issue_json(issue, fields, kind) for issue in page]}
        if offset + page_size < len(matching):
            body["nextPageToken"] = base64.urlsafe_b64encode(
                json.dumps({"o": offset + page_size}).encode()
            ).decode()
            body["isLast"] = False
        else:
            body["isLast"] = True
        return self._json(body)

    def _answer_projects(self, request: Request) -> Response:
        early, kind = self._preamble(request)
        if early is not None:
            return early
        start_at = int(request.args.get("startAt", 0))
        page_size = min(int(request.args.get("maxResults", 50)), self.project_page_cap)
        keys = sorted(self.projects)
        page = keys[start_at : start_at + page_size]
        is_last = start_at + page_size >= len(keys)
        base = self.url
        values = [
            {
                "expand": "description,lead,issueTypes,url,projectKeys,permissions,insight",
                "self": f"{base}{API}/project/{10000 + keys.index(key)}",
                "id": str(10000 + keys.index(key)),
                "key": key,
                "name": self.projects[key],
                "avatarUrls": _AVATARS,
                "projectTypeKey": "software",
                "simplified": False,
                "style": "classic",
                "isPrivate": False,
                "properties": {},
            }
            for key in page
        ]
        body: dict[str, Any] = {
            "self": f"{base}{API}/project/search?maxResults={page_size}&startAt={start_at}",
            "maxResults": page_size,
            "startAt": start_at,
            "total": len(keys),
            "isLast": is_last,
            "values": values,
        }
        if not is_last:
            body["nextPage"] = (
                f"{base}{API}/project/search?maxResults={page_size}&startAt={start_at + page_size}"
            )
        if kind == "missing_fields":
            body.pop("isLast")
            body.pop("values")
        return self._json(body)


@pytest.fixture
def jira_standin(settings: Any) -> Iterator[JiraStandIn]:
    """A running Jira stand-in, with JIRA_URL, JIRA_USER and JIRA_API_TOKEN pointing at it and an empty cache."""
    from django.core.cache import cache

    standin = JiraStandIn()
    standin.start()
    settings.JIRA_URL = standin.url
    settings.JIRA_USER = standin.user
    settings.JIRA_API_TOKEN = standin.token
    cache.clear()
    try:
        yield standin
    finally:
        standin.stop()
        cache.clear()
    # A request the stand-in had no handler for, or a crash inside one, fails the test.
    standin.server.check_assertions()
    standin.server.check_handler_errors()
