"""API authentication: `Authorization: Bearer <token>` or `x-api-key: <token>`.

An agent's or a person's token writes as an `api_actor`; a run's token writes as the run
(a `session_actor`) and stops working when the run ends (or once its lesson prompt is answered).
A deactivated agent authenticates with neither its own tokens nor its runs' tokens: it reads
nothing and writes nothing (401 on every route) until it is switched on again.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from rest_framework import authentication, exceptions

from runs.selectors import run_for_token_hash
from stores.console_checks.request import Writer
from stores.models import ApiToken, hash_token
from stores.services.tokens import RUN_TOKEN_PREFIX

LAST_USED_GRANULARITY = timedelta(minutes=5)


class AgentUser:
    """What DRF sees as request.user for an agent: authenticated, never staff."""

    is_authenticated = True
    is_anonymous = False
    is_staff = False
    is_superuser = False
    is_active = True

    def __init__(self, name: str) -> None:
        self.username = name

    def get_username(self) -> str:
        return self.username


def token_from_request(request) -> str | None:
    header = request.META.get("HTTP_AUTHORIZATION", "")
    if header:
        scheme, _, value = header.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    api_key = request.META.get("HTTP_X_API_KEY", "").strip()
    return api_key or None


def writer_for_token(token: str, door: str = "api") -> Writer | None:
    """The writer a token stands for, or None when it is unknown, disabled, expired or ended, or when
    its agent (or person) is deactivated."""
    digest = hash_token(token)
    if token.startswith(RUN_TOKEN_PREFIX):
        run = run_for_token_hash(digest)
        if run is None or not run.agent.active:
            return None
        # A run's token is what the run folder's sync (ours or the SDK's worker) writes with.
        return Writer(agent=run.agent, run=run, door="sync")
    row = ApiToken.objects.select_related("agent", "user").filter(token_hash=digest, enabled=True).first()
    now = timezone.now()
    if row is None or (row.expires_at is not None and row.expires_at <= now):
        return None
    if row.agent_id is not None and not row.agent.active:
        return None
    if row.last_used_at is None or now - row.last_used_at > LAST_USED_GRANULARITY:
        # Coarse on purpose: one small write every few minutes per token, not one per request.
        ApiToken.objects.filter(pk=row.pk).update(last_used_at=now)
    if row.agent_id is not None:
        return Writer(agent=row.agent, api_key_id=row.key_id, door=door)  # type: ignore[arg-type]
    if not row.user.is_active:
        return None
    return Writer(user=row.user, api_key_id=row.key_id, door=door)  # type: ignore[arg-type]


def deactivated_agent_of_token(token: str) -> str | None:
    """The name of the deactivated agent a token (its own, or one of its runs') would otherwise stand for.

    Asked only once a token failed, so the 401 can say the one thing that is wrong.
    """
    digest = hash_token(token)
    if token.startswith(RUN_TOKEN_PREFIX):
        run = run_for_token_hash(digest)
        return run.agent.name if run is not None and not run.agent.active else None
    row = ApiToken.objects.select_related("agent").filter(token_hash=digest, enabled=True).first()
    if row is None or row.agent_id is None or row.agent.active:
        return None
    if row.expires_at is not None and row.expires_at <= timezone.now():
        return None
    return row.agent.name


class TokenAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request):
        token = token_from_request(request)
        if token is None:
            return None
        writer = writer_for_token(token)
        if writer is None:
            name = deactivated_agent_of_token(token)
            if name is not None:
                raise exceptions.AuthenticationFailed(
                    f"The API key is valid, but agent {name} is deactivated: it reads and writes nothing until "
                    f"an operator reactivates it with `manage.py set_agent {name} --active`."
                )
            raise exceptions.AuthenticationFailed(
                "The API key is not valid: it is unknown, disabled or expired, its run has ended, or its "
                "agent or account is deactivated."
            )
        user = writer.user if writer.is_person else AgentUser(writer.name)
        return user, writer

    def authenticate_header(self, request) -> str:
        return 'Bearer realm="memory-console"'
