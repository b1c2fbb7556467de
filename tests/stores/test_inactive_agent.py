"""A deactivated agent reads nothing and writes nothing: 401 on every route, with its own token and
with its runs' tokens alike (issue 9 s.5). Switched on again, the same tokens work."""

from __future__ import annotations

import re
import secrets

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from runs.models import Run
from runs.services import run_attachments
from stores.models import Store, hash_token
from stores.services.registry import agent_set
from stores.services.tokens import RUN_TOKEN_PREFIX
from tests import factories as f

pytestmark = pytest.mark.django_db


def _api_routes() -> list[str]:
    """Every route under /api/v1/, as a pattern with <placeholders>."""
    routes: list[str] = []

    def walk(patterns, prefix: str) -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, prefix + str(entry.pattern))
            elif isinstance(entry, URLPattern):
                routes.append(prefix + str(entry.pattern))

    walk(get_resolver().url_patterns, "/")
    return sorted({r for r in routes if r.startswith("/api/v1/")})


@pytest.fixture
def deactivated(world):
    """ada with a memory in her store, a run, and both her tokens; then switched off."""
    store = Store.objects.get(agent=world.agent)
    memory = f.make_memory(store, "/agents/ada/kept.md", "A plain lesson.\n", writer=f.agent_writer(world.agent))
    run_secret = RUN_TOKEN_PREFIX + secrets.token_urlsafe(24)
    run = Run.objects.create(agent=world.agent, project=world.project, ticket_key="ACME-3",
                             token_hash=hash_token(run_secret), attachments=run_attachments(world.agent, world.project))
    values = {
        "store_id": store.public_id,
        "memory_id": memory.public_id,
        "version_id": memory.history.first().version_id,
        "run_id": run.public_id,
    }
    agent_set(name=world.agent.name, active=False)
    return world, values, {"own token": world.agent_token, "run token": run_secret}


def _url(route: str, values: dict[str, str]) -> str:
    return re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values[m.group(1)], route)


def test_every_api_route_is_in_the_walk():
    routes = _api_routes()
    assert "/api/v1/memory_stores/<str:store_id>/memories" in routes
    assert "/api/v1/runs/<str:run_id>/changes" in routes
    assert len(routes) >= 15


@pytest.mark.parametrize("which", ["own token", "run token"])
@pytest.mark.parametrize("header", ["bearer", "x-api-key"])
def test_a_deactivated_agent_gets_401_on_every_route(api, deactivated, which, header):
    _world, values, tokens = deactivated
    token = tokens[which]
    credentials = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if header == "bearer" else {"HTTP_X_API_KEY": token}
    api.credentials(**credentials)
    answered = []
    for route in _api_routes():
        url = _url(route, values)
        for method in ("get", "post", "delete"):
            response = getattr(api, method)(url, {}, format="json") if method == "post" else getattr(api, method)(url)
            if response.status_code == 405:
                continue
            answered.append(url)
            assert response.status_code == 401, (method, url, response.status_code)
            assert response.json()["error"]["type"] == "authentication_error", (method, url)
            # The one thing wrong is said, and how it is put right.
            message = response.json()["error"]["message"]
            assert f"agent {_world.agent.name} is deactivated" in message, (method, url, message)
            assert f"set_agent {_world.agent.name} --active" in message
    assert len(set(answered)) >= 15


def test_switched_on_again_the_same_tokens_read(api, deactivated):
    world, values, tokens = deactivated
    agent_set(name=world.agent.name, active=True)
    for token in tokens.values():
        response = api.as_token(token).get(f"/api/v1/memory_stores/{values['store_id']}/memories")
        assert response.status_code == 200, response.json()


def test_an_unknown_token_is_not_said_to_be_a_deactivated_agent(api, world):
    response = api.as_token("mca_" + secrets.token_urlsafe(24)).get("/api/v1/memory_stores")
    assert response.status_code == 401
    assert "deactivated:" not in response.json()["error"]["message"]
    assert "unknown, disabled or expired" in response.json()["error"]["message"]
