"""Helpers for the run tests: starting runs through the API, secrets built from fragments."""

from __future__ import annotations

import pytest

RUNS = "/api/v1/runs"
STORES = "/api/v1/memory_stores"


def error_code(response) -> str | None:
    return response.json()["error"].get("details", {}).get("error_code")


def start(api, token: str, ticket: str = "ACME-1", host: str = "vm-1"):
    """POST /api/v1/runs with a token; returns the response."""
    return api.as_token(token).post(RUNS, {"ticket_key": ticket, "host": host}, format="json")


def started(api, token: str, ticket: str = "ACME-1") -> dict:
    response = start(api, token, ticket)
    assert response.status_code == 200, response.content
    return response.json()


def aws_key() -> str:
    """An AWS-access-key-shaped value, assembled at run time so no secret sits in the repository."""
    return "AKIA" + "Q3EGUJXN" + "5B7VTR2M"


def github_token() -> str:
    return "gh" + "p_" + "a1B2c3D4e5F6g7H8" + "i9J0k1L2m3N4o5P6q7R8"


def password_value() -> str:
    return "hunter" + "2Xq9zWv"


@pytest.fixture
def run_factory(api, world):
    """Start a run for the world's agent (or another token) and return its JSON."""

    def make(ticket: str = "ACME-1", token: str | None = None) -> dict:
        return started(api, token or world.agent_token, ticket)

    return make
