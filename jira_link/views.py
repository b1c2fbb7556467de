"""The Jira webhook: issue events, signed by Jira Cloud, that refresh a ticket at once.

A DRF view with its own answers (``{"ok": ...}``, not the agent API's error envelope), as Jira
Cloud has always been answered: 200 ``{"ok": true}`` (``"ignored": true`` for events that are not
about issues); 401 unsigned or badly signed; 400 unreadable JSON or a body naming no issue; 405 any
method but POST. It is Jira's callback, signed with a shared secret rather than a token, so it
is left out of the agent API's schema (/api/schema/); its body is ``IssueEventIn``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from typing import Any

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.parsers import BaseParser
from rest_framework.permissions import BasePermission
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from .serializers import IssueEventIn
from .services import InvalidIssueUpdate, apply_issue_update

logger = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Hub-Signature"
SIGNED_BY_JIRA = "jira-webhook-signature"


def _signature_ok(request) -> bool:
    """True when X-Hub-Signature is ``sha256=<hex HMAC-SHA256 of the raw body>`` under JIRA_WEBHOOK_SECRET.

    With no secret configured nothing is accepted: an unsigned webhook could drop or rewrite any
    ticket's picture.
    """
    secret = str(getattr(settings, "JIRA_WEBHOOK_SECRET", "") or "")
    if not secret:
        logger.warning("Jira webhook refused: JIRA_WEBHOOK_SECRET is not set")
        return False
    method, _, given = request.headers.get(SIGNATURE_HEADER, "").strip().partition("=")
    if method.lower() != "sha256" or not given:
        return False
    expected = hmac.new(secret.encode("utf-8"), request.body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, given.strip().lower())


class JiraSignatureAuthentication(BaseAuthentication):
    """The shared secret: a body signed with JIRA_WEBHOOK_SECRET comes from Jira; nothing else does."""

    def authenticate(self, request) -> tuple[None, str]:
        if not _signature_ok(request):
            raise exceptions.AuthenticationFailed("invalid_signature")
        return None, SIGNED_BY_JIRA

    def authenticate_header(self, request) -> str:
        # Answered 401 (DRF makes a failure without one a 403); the webhook's answer sets no header.
        return "X-Hub-Signature"


class SignedByJira(BasePermission):
    def has_permission(self, request, view) -> bool:
        return request.auth == SIGNED_BY_JIRA


class RawJSONParser(BaseParser):
    """The body as JSON whatever its content type (Jira's is application/json; it was never checked)."""

    media_type = "*/*"

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        try:
            return json.loads(stream.read())
        except ValueError as exc:
            raise exceptions.ParseError("invalid_json") from exc


class AsJsonResponse(JSONRenderer):
    """The bytes Django's JsonResponse wrote before (ASCII only, ", " and ": " separators)."""

    compact = False
    ensure_ascii = True


class AlwaysJson(BaseContentNegotiation):
    """Jira's Accept header is not consulted: the answer is JSON, as it always was."""

    def select_parser(self, request, parsers):
        return parsers[0]

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


def _answer(error: str, status: int, **extra: Any) -> Response:
    return Response({"ok": False, "error": error, **extra}, status=status)


def webhook_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """The webhook's own error answers (Jira reads the status; people read ``error``)."""
    if isinstance(exc, exceptions.MethodNotAllowed):
        return _answer("method_not_allowed", 405)  # finalize_response adds Allow: POST
    if isinstance(exc, (exceptions.NotAuthenticated, exceptions.AuthenticationFailed, exceptions.PermissionDenied)):
        return _answer("invalid_signature", 401)
    if isinstance(exc, exceptions.ParseError):
        return _answer("invalid_json", 400)
    return None


@extend_schema(exclude=True)
class JiraWebhookView(APIView):
    """Take one signed issue event and refresh the ticket it names."""

    http_method_names = ["post"]
    authentication_classes = [JiraSignatureAuthentication]
    permission_classes = [SignedByJira]
    throttle_classes: list = []  # the agent API's per-token budgets; Jira holds no token
    parser_classes = [RawJSONParser]
    renderer_classes = [AsJsonResponse]
    content_negotiation_class = AlwaysJson

    def get_exception_handler(self):
        return webhook_exception_handler

    def initial(self, request, *args, **kwargs) -> None:
        # The method is answered before the signature (405 for a GET, signed or not), as it always was.
        if request.method.lower() not in self.http_method_names:
            self.http_method_not_allowed(request, *args, **kwargs)
        super().initial(request, *args, **kwargs)

    def post(self, request) -> Response:
        if not request.body:
            raise exceptions.ParseError("invalid_json")  # DRF reads an empty body as {}; it is not JSON
        payload = request.data
        event = payload.get("webhookEvent", "") if isinstance(payload, dict) else ""
        if not (isinstance(event, str) and event.startswith("jira:issue_")):
            # Other events (comments, worklogs, ...) change no assignee; accept them so Jira does not retry.
            return Response({"ok": True, "ignored": True})
        body = IssueEventIn(data=payload)
        if not body.is_valid():
            return _answer("invalid_payload", 400, message=body.first_error())
        try:
            apply_issue_update(body.payload())
        except InvalidIssueUpdate as exc:
            return _answer("invalid_payload", 400, message=str(exc))
        return Response({"ok": True})


jira_webhook = JiraWebhookView.as_view()
