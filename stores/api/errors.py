"""One exception handler: domain errors and DRF's own, in the reference's error envelope."""

from __future__ import annotations

import logging
import math
import sys

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions
from rest_framework.response import Response

from memory_console.request_ids import request_id_for
from stores.console_checks.reasons import Reason
from stores.console_checks.what_content import MAX_CONTENT_BYTES
from stores.errors import ConsoleError

logger = logging.getLogger(__name__)

DRF_STATUS_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    405: "invalid_request_error",
    406: "invalid_request_error",
    415: "invalid_request_error",
    429: "rate_limit_error",
}


def error_response(request, status: int, error_type: str, message: str, code: str | None = None,
                   extra: dict | None = None, details: dict | None = None) -> Response:
    error = {"type": error_type, "message": message}
    error.update(extra or {})
    if code or details:
        error["details"] = {**({"error_code": code} if code else {}), **(details or {})}
    response = Response(
        {"type": "error", "error": error, "request_id": request_id_for(request)}, status=status
    )
    if status == 409:
        # Every 409 here is deterministic: resending the same request cannot succeed.
        response["x-should-retry"] = "false"
    return response


DATABASE_UNAVAILABLE = (
    "The console's database is not answering at the moment; nothing was changed by this request. "
    "Retry after the time in the retry-after header."
)


def _database_unavailable(exc: BaseException | None) -> bool:
    """True for an error that says the database cannot answer now (down, unreachable, busy), not a bug."""
    return isinstance(exc, OperationalError | InterfaceError)


def database_unavailable_response(request) -> Response:
    """503 ``overloaded_error`` with ``retry-after``: the SDK backs off and retries (reference 1.5)."""
    response = error_response(request, 503, "overloaded_error", DATABASE_UNAVAILABLE)
    response["retry-after"] = str(settings.DATABASE_RETRY_AFTER_SECONDS)
    return response


def exception_handler(exc, context):
    request = context.get("request")
    if isinstance(exc, ConsoleError):
        return error_response(request, exc.status, exc.error_type, exc.message, exc.code, exc.extra, exc.details)
    if _database_unavailable(exc):
        logger.warning("database unavailable, answered 503: %s", exc)
        return database_unavailable_response(request)
    if isinstance(exc, Http404):
        return error_response(request, 404, "not_found_error", "Not found.")
    if isinstance(exc, RequestDataTooBig):
        # Django refuses the body before any check sees it; say why in the envelope, a lasting 400.
        return error_response(
            request, 400, "invalid_request_error",
            f"The request body is larger than the console accepts; a memory holds at most {MAX_CONTENT_BYTES:,} "
            "bytes. Keep notes short, or split this one.",
            Reason.CONTENT_INVALID,
        )
    if isinstance(exc, exceptions.APIException):
        status = exc.status_code
        if status == 422:
            status = 400
        detail = exc.detail
        message = detail if isinstance(detail, str) else str(detail)
        response = error_response(request, status, DRF_STATUS_TYPES.get(status, "api_error"), message)
        if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
            response["retry-after"] = str(math.ceil(exc.wait))  # whole seconds; the SDK waits that long
        if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
            response["WWW-Authenticate"] = 'Bearer realm="memory-console"'
            if isinstance(exc, exceptions.NotAuthenticated):
                response.data["error"]["message"] = (
                    "No API key: send it as `Authorization: Bearer <token>` or `x-api-key: <token>`."
                )
        return response
    return None


def _api_error_page(request: HttpRequest, status: int, error_type: str, message: str) -> HttpResponse:
    """The reference's envelope for an answer that never reached an API view."""
    body = {"type": "error", "error": {"type": error_type, "message": message}, "request_id": request_id_for(request)}
    response = JsonResponse(body, status=status)
    if status == 503:
        response["retry-after"] = str(settings.DATABASE_RETRY_AFTER_SECONDS)
    return response


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404 for a URL nothing answers: the API's envelope under /api/ (a trailing slash, say), else the page."""
    if request.path.startswith("/api/"):
        hint = " (API routes have no trailing slash, e.g. /api/v1/memory_stores)" if request.path.endswith("/") else ""
        return _api_error_page(request, 404, "not_found_error", f"No route {request.path}{hint}.")
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """500 in the API's envelope under /api/ (the SDK reads `error.type` and `request_id`), else the page."""
    if request.path.startswith("/api/"):
        # Django calls this handler while the error is being handled: a database that failed
        # outside an API view (in a middleware, say) still answers as one that failed inside it.
        if _database_unavailable(sys.exc_info()[1]):
            return _api_error_page(request, 503, "overloaded_error", DATABASE_UNAVAILABLE)
        return _api_error_page(request, 500, "api_error", "The console failed to answer; the error was logged.")
    return defaults.server_error(request)
