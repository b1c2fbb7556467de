"""The Jira webhook: issue events, signed by Jira Cloud, that refresh a ticket at once."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from .services import InvalidIssueUpdate, apply_issue_update

logger = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Hub-Signature"


def _signature_ok(request: HttpRequest) -> bool:
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


@csrf_exempt  # Jira signs the body instead; it holds no session or CSRF token
def jira_webhook(request: HttpRequest) -> JsonResponse:
    """Take one signed issue event: 200 {"ok": true}; 401 unsigned or badly signed; 400 unreadable; 405 not POST."""
    if request.method != "POST":
        response = JsonResponse({"ok": False, "error": "method_not_allowed"}, status=405)
        response["Allow"] = "POST"
        return response
    if not _signature_ok(request):
        return JsonResponse({"ok": False, "error": "invalid_signature"}, status=401)
    try:
        payload = json.loads(request.body)
    except ValueError:
        return JsonResponse({"ok": False, "error": "invalid_json"}, status=400)
    event = payload.get("webhookEvent", "") if isinstance(payload, dict) else ""
    if not (isinstance(event, str) and event.startswith("jira:issue_")):
        # Other events (comments, worklogs, ...) change no assignee; accept them so Jira does not retry.
        return JsonResponse({"ok": True, "ignored": True})
    try:
        apply_issue_update(payload)
    except InvalidIssueUpdate as exc:
        return JsonResponse({"ok": False, "error": "invalid_payload", "message": str(exc)}, status=400)
    return JsonResponse({"ok": True})
