"""API tokens: issued by operators only, shown once, stored hashed."""

from __future__ import annotations

import secrets

from stores.models import ApiToken, HostedAgent, hash_token

AGENT_TOKEN_PREFIX = "mca_"
PERSON_TOKEN_PREFIX = "mcp_"
RUN_TOKEN_PREFIX = "mcr_"


def new_secret(prefix: str) -> str:
    return prefix + secrets.token_urlsafe(32)


def token_issue_for_agent(agent: HostedAgent) -> tuple[ApiToken, str]:
    """Issue a token for an agent. The secret is returned once and never stored."""
    secret = new_secret(AGENT_TOKEN_PREFIX)
    return ApiToken.objects.create(agent=agent, token_hash=hash_token(secret)), secret


def token_issue_for_user(user) -> tuple[ApiToken, str]:
    """Issue a token for a person. The secret is returned once and never stored."""
    secret = new_secret(PERSON_TOKEN_PREFIX)
    return ApiToken.objects.create(user=user, token_hash=hash_token(secret)), secret
