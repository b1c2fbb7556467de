"""Two console instances on one PostgreSQL test database and one Redis: the fixture ``instances``.

Each instance is its own gunicorn master with two workers on a free port of 127.0.0.1, serving the
console as it is deployed (its ASGI application under uvicorn's worker when the build has one, else
``memory_console.wsgi`` on sync workers) with the suite's settings, on the very test database pytest-django made
(``tests.schedule.procs.shared_database_url``) and the suite's ``REDIS_URL`` (the cache: Jira
answers and throttle counts). Both ask the same Jira stand-in. They start once per module and are
stopped at its end, also when a test fails; a worker that died is reported with its log.

Tests here are transactional (the servers must see what the test commits) and marked
``postgres``, ``redis`` and ``live``.
"""

from __future__ import annotations

import ctypes
import hashlib
import hmac
import importlib.util
import json
import os
import secrets
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import requests
from django.contrib.contenttypes.models import ContentType
from django.db import connection

from tests.jira_standin import JiraStandIn
from tests.schedule.procs import ROOT, child_env, free_port, shared_database_url, wait_for

GUNICORN = [sys.executable, "-m", "gunicorn"]
PR_SET_PDEATHSIG = 1


def _stop_with_parent() -> None:
    """In the child before exec: Linux sends it SIGTERM if the test process dies without tearing down
    (killed outright), so no instance outlives the run."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def served_app() -> list[str]:
    """gunicorn's application and worker arguments for the console as this build deploys it."""
    if (ROOT / "memory_console" / "asgi.py").exists() and importlib.util.find_spec("uvicorn") is not None:
        return ["memory_console.asgi:application", "--worker-class", "uvicorn.workers.UvicornWorker"]
    return ["memory_console.wsgi:application"]


@dataclass
class Instance:
    """One gunicorn master serving the console, and what it logged."""

    name: str
    port: int
    logfile: Path
    proc: subprocess.Popen | None = None
    session: requests.Session = field(default_factory=requests.Session)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        return self.logfile.read_text(errors="replace") if self.logfile.exists() else ""

    def answers(self) -> bool:
        try:
            return self.session.get(f"{self.url}/api/v1/memory_stores", timeout=2).status_code == 401
        except requests.RequestException:
            return False

    def start(self, env: dict[str, str]) -> None:
        # gunicorn's own lines and the console's log (a traceback behind a 500) go to one file.
        with open(self.logfile, "ab") as log:
            self.proc = subprocess.Popen(
                [*GUNICORN, *served_app(), "--bind", f"127.0.0.1:{self.port}", "--workers", "2",
                 "--timeout", "60", "--graceful-timeout", "5", "--log-level", "info", "--error-logfile", "-",
                 "--chdir", str(ROOT)],
                env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                preexec_fn=_stop_with_parent if sys.platform == "linux" else None,
            )
        wait_for(lambda: self.answers() or self.proc.poll() is not None, 60,
                 what=lambda: f"instance {self.name} to answer on {self.url}:\n{self.log()[-2000:]}")
        assert self.proc.poll() is None, f"instance {self.name} exited early:\n{self.log()[-3000:]}"

    def stop(self) -> None:
        self.session.close()
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)  # gunicorn: graceful stop of the master and its workers
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)

    # The agent API, as any HTTP client calls it.

    def call(self, method: str, path: str, token: str | None = None, **kw: Any) -> requests.Response:
        headers = kw.pop("headers", {})
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        return self.session.request(method, f"{self.url}{path}", headers=headers, timeout=30, **kw)


AuthRows = tuple[list[tuple], list[tuple]]


def _auth_rows() -> AuthRows:
    """The content types and permissions as the database holds them, ids included."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, app_label, model FROM django_content_type ORDER BY id")
        content_types = cursor.fetchall()
        cursor.execute("SELECT id, name, content_type_id, codename FROM auth_permission ORDER BY id")
        permissions = cursor.fetchall()
    return content_types, permissions


def _put_back(rows: AuthRows) -> None:
    """Make the content types and permissions the ones in ``rows``, ids included (tables otherwise empty)."""
    content_types, permissions = rows
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM auth_permission")
        cursor.execute("DELETE FROM django_content_type")
        cursor.executemany("INSERT INTO django_content_type (id, app_label, model) VALUES (%s, %s, %s)",
                           content_types)
        cursor.executemany(
            "INSERT INTO auth_permission (id, name, content_type_id, codename) VALUES (%s, %s, %s, %s)", permissions)


@dataclass
class Instances:
    """The two instances, the Jira stand-in they both ask, and the secret the webhook is signed with."""

    a: Instance
    b: Instance
    jira: JiraStandIn
    webhook_secret: str
    auth_rows: AuthRows

    def __iter__(self) -> Iterator[Instance]:
        return iter((self.a, self.b))

    def sign(self, body: bytes) -> str:
        return "sha256=" + hmac.new(self.webhook_secret.encode(), body, hashlib.sha256).hexdigest()

    def alive(self) -> None:
        """Fail with the log when a master has died (a test's own request errors say less)."""
        for instance in self:
            assert instance.proc is not None and instance.proc.poll() is None, (
                f"instance {instance.name} died:\n{instance.log()[-3000:]}")


@pytest.fixture(scope="module")
def instances(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[Instances]:
    """Two gunicorn instances of the console on the test database and the suite's Redis (once per module)."""
    redis_url = os.environ.get("REDIS_URL", "")
    if not redis_url:
        pytest.skip("needs Redis: set REDIS_URL=redis://... to a running server")
    with django_db_blocker.unblock():
        database_url = shared_database_url()
        auth_rows = _auth_rows()
    workdir = tmp_path_factory.mktemp("instances")
    jira = JiraStandIn()
    jira.start()
    webhook_secret = "-".join(["whsec", secrets.token_hex(16)])  # built at run time: no secret in the repository
    env = child_env(broker_url=redis_url, database_url=database_url)
    env.update(
        JIRA_URL=jira.url, JIRA_USER=jira.user, JIRA_API_TOKEN=jira.token, JIRA_WEBHOOK_SECRET=webhook_secret,
        # Long enough that only the webhook's drop (not the cache running out) can explain a fresh answer.
        JIRA_CACHE_SECONDS="600", DB_CONN_MAX_AGE="0",
    )
    pair = Instances(Instance("a", free_port(), workdir / "a.log"), Instance("b", free_port(), workdir / "b.log"),
                     jira, webhook_secret, auth_rows)
    try:
        for instance in pair:
            instance.start(env)
        yield pair
    finally:
        for instance in pair:
            instance.stop()
        jira.stop()


@pytest.fixture(autouse=True)
def _content_types_as_the_instances_know_them(instances: Instances, transactional_db) -> None:
    """Each test starts with the content-type and permission ids the instances started with.

    Between transactional tests pytest-django empties every table and Django makes the content
    types and permissions again, under new ids; a long-running instance keeps the old ids in its
    content-type cache (django-guardian's permission queries then fail). A deployment never sees
    its content types renumbered, so each test puts the module's first ids back before it starts.
    """
    if _auth_rows() != instances.auth_rows:
        _put_back(instances.auth_rows)
    ContentType.objects.clear_cache()


# A person in the Django admin, through one instance: log in, open a form, change fields, save.


class _FormFields(HTMLParser):
    """The named fields of the admin's model form (``<form id="<model>_form">``), as a browser would
    submit them untouched (the page's other forms, such as the log-out button, are skipped)."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: list[tuple[str, str]] = []
        self._in_form = False
        self._done = False
        self._select: str | None = None
        self._textarea: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if self._done:
            return
        if tag == "form" and a.get("id", "").endswith("_form"):
            self._in_form = True
        if not self._in_form:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text").lower()
            if kind in ("submit", "button", "image", "file", "reset"):
                return
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            self.fields.append((name, a.get("value", "on" if kind == "checkbox" else "")))
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select and "selected" in a:
            self.fields.append((self._select, a.get("value", "")))
        elif tag == "textarea" and name:
            self._textarea, self._text = name, []

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea" and self._textarea:
            self.fields.append((self._textarea, "".join(self._text).removeprefix("\n")))
            self._textarea = None
        elif tag == "form" and self._in_form:
            self._in_form, self._done = False, True


class AdminSession:
    """A person logged into the Django admin of one instance, saving forms as the browser would."""

    def __init__(self, instance: Instance, username: str, password: str) -> None:
        self.instance = instance
        self.http = requests.Session()
        login = f"{instance.url}/admin/login/"
        self.http.get(login, timeout=30).raise_for_status()
        response = self.http.post(login, data={"username": username, "password": password,
                                               "csrfmiddlewaretoken": self.http.cookies["csrftoken"],
                                               "next": "/admin/"}, timeout=30)
        assert response.ok and "sessionid" in self.http.cookies, f"admin login refused:\n{response.text[:2000]}"

    def save(self, form_path: str, changes: dict[str, str | None]) -> requests.Response:
        """Open the admin form at ``form_path``, set (or, for None, untick) the named fields, and save it."""
        url = f"{self.instance.url}{form_path}"
        page = self.http.get(url, timeout=30)
        page.raise_for_status()
        parser = _FormFields()
        parser.feed(page.text)
        fields = [(k, v) for k, v in parser.fields if k not in changes]
        fields += [(k, v) for k, v in changes.items() if v is not None]
        response = self.http.post(url, data=fields, headers={"Referer": url}, timeout=30, allow_redirects=False)
        assert response.status_code == 302, f"the admin did not save {form_path}:\n{_errors(response.text)}"
        return response

    def close(self) -> None:
        self.http.close()


def _errors(page: str) -> str:
    """The admin's error notes on a form page, or the page's start."""
    marks = [line.strip() for line in page.splitlines() if "errorlist" in line or "errornote" in line]
    return "\n".join(marks) or page[:2000]


def issue_event(key: str, assignee: str | None, project: str) -> bytes:
    """A Jira Cloud issue-updated webhook body (the assignee changed)."""
    fields = {
        "assignee": None if assignee is None else {"accountId": assignee, "displayName": "Hosted Agent"},
        "project": {"key": project, "name": f"{project} project"},
        "status": {"name": "In Progress"},
    }
    return json.dumps({
        "timestamp": 1764510000000,
        "webhookEvent": "jira:issue_updated",
        "issue_event_type_name": "issue_assigned",
        "issue": {"id": "10002", "key": key, "fields": fields},
        "changelog": {"id": "10100", "items": [{"field": "assignee", "fieldtype": "jira"}]},
    }).encode()
