"""Fixtures for the Jira link's tests.

``jira_standin`` comes from the plugin ``tests/jira_standin.py``, which ``tests/conftest.py``
registers for every test folder.
"""

from __future__ import annotations

import pytest


@pytest.fixture
def console_project():
    """Make a console JiraProject (and its client) by key; optionally with its engagement closed."""
    from stores.models import Client, JiraProject

    def make(key: str, *, closed_on=None) -> JiraProject:
        client, _ = Client.objects.get_or_create(name=f"Client of {key}")
        return JiraProject.objects.create(key=key, client=client, engagement_closed_on=closed_on)

    return make


@pytest.fixture
def fast_timeout(settings) -> float:
    """A short client timeout, so slow-Jira tests take a fraction of a second."""
    settings.JIRA_TIMEOUT_SECONDS = 0.3
    return 0.3
