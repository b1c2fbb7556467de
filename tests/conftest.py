"""Shared fixtures. Tests run against the database DATABASE_URL names (PostgreSQL in CI) and Redis.

Tests marked `postgres` or `redis` are skipped, with the reason shown, when that service is
not configured; under CI (CI=true) a skipped test fails the run.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from urllib.parse import urlparse

import pytest
from rest_framework.test import APIClient

from stores.services.change_notices import stop_listening
from tests import factories as f

pytest_plugins = ["tests.jira_standin", "tests.messages_standin"]

_skipped: list[str] = []


def _redis_answers() -> bool:
    url = os.environ.get("REDIS_URL")
    if not url:
        return False
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 6379), timeout=1):
            return True
    except OSError:
        return False


def pytest_collection_modifyitems(config, items):
    from django.db import connection

    on_postgres = connection.vendor == "postgresql"
    redis_ok = _redis_answers()
    for item in items:
        if "postgres" in item.keywords and not on_postgres:
            item.add_marker(pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL=postgres://..."))
        if "redis" in item.keywords and not redis_ok:
            item.add_marker(pytest.mark.skip(reason="needs Redis: set REDIS_URL=redis://... to a running server"))


def pytest_runtest_logreport(report):
    # A skip hides a part that did not run (no browser, no database). A strict xfail ran: it names a
    # known miss with its reason, and fails the run the day the miss is fixed, so it is not counted.
    if report.skipped and not hasattr(report, "wasxfail"):
        _skipped.append(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    if os.environ.get("CI", "").lower() == "true" and _skipped and exitstatus == 0:
        print(f"\nCI=true: {len(_skipped)} test(s) were skipped, which fails the run under CI:")
        for nodeid in _skipped[:50]:
            print("  skipped:", nodeid)
        session.exitstatus = 1


class Api(APIClient):
    """DRF's test client speaking to /api/v1 with a token."""

    def as_token(self, token: str | None) -> Api:
        self.credentials(**({"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}))
        return self


@pytest.fixture(scope="session", autouse=True)
def change_notices_closed(django_db_setup, django_db_blocker):
    """The process listens for change notices once a test holds a change-feed request; that
    connection closes before the test database is dropped."""
    yield
    stop_listening()


@pytest.fixture
def api() -> Api:
    return Api()


@dataclass
class World:
    """One client with a project covered by a pod, agents in and out of it, an admin and contacts."""

    client: object
    project: object
    project_store: object
    other_project: object
    agent: object
    agent_token: str
    outsider: object
    outsider_token: str
    pod: object
    admin: object
    admin_token: str
    contact: object
    contact_token: str
    other_contact: object
    staff: object
    practice: object
    toolset: object


@pytest.fixture
def world(db) -> World:
    from stores.models import Store, StoreKind

    client = f.make_client("Acme Analytics", aliases=["Acme"])
    toolset = f.make_toolset("dbt")
    project = f.make_project("ACME", client=client)
    project.toolsets.add(toolset)
    other = f.make_project("OTHR", client=f.make_client("Other Co"))
    agent = f.make_agent("ada", jira_account_id="acc-ada")
    outsider = f.make_agent("bob", jira_account_id="acc-bob")
    pod = f.make_pod(agents=[agent], projects=[project], name="pod-acme")
    f.make_pod(agents=[outsider], projects=[other], name="pod-other")
    admin = f.make_user("root-admin", admin=True)
    contact = f.make_user("carol")
    f.add_contact(project, contact)
    other_contact = f.make_user("dave")
    f.add_contact(other, other_contact)
    staff = f.make_user("erin")
    staff.is_staff = True
    staff.save()
    return World(
        client=client,
        project=project,
        project_store=Store.objects.get(project=project),
        other_project=other,
        agent=agent,
        agent_token=f.agent_token(agent),
        outsider=outsider,
        outsider_token=f.agent_token(outsider),
        pod=pod,
        admin=admin,
        admin_token=f.user_token(admin),
        contact=contact,
        contact_token=f.user_token(contact),
        other_contact=other_contact,
        staff=staff,
        practice=Store.objects.get(kind=StoreKind.PRACTICE),
        toolset=toolset,
    )
