"""Domain errors. The API's exception handler turns each into the reference's error envelope."""

from __future__ import annotations

from typing import Any


class ConsoleError(Exception):
    """An answer other than success: an HTTP status, an error type, a message and maybe a code."""

    status = 400
    error_type = "invalid_request_error"

    def __init__(self, message: str, *, code: str | None = None, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.extra = extra or {}
        # Said in ``error.details`` beside the reason code (a set-aside id, say).
        self.details: dict[str, Any] = {}
        # A losing text to keep aside once the refused change has rolled back (see services.refusals).
        self.set_aside: dict[str, Any] | None = None


class InvalidRequest(ConsoleError):
    status = 400
    error_type = "invalid_request_error"


class NotFound(ConsoleError):
    status = 404
    error_type = "not_found_error"


class PermissionDenied(ConsoleError):
    status = 403
    error_type = "permission_error"


class PathConflict(ConsoleError):
    status = 409
    error_type = "memory_path_conflict_error"


class PreconditionFailed(ConsoleError):
    status = 409
    error_type = "memory_precondition_failed_error"


class Conflict(ConsoleError):
    status = 409
    error_type = "conflict_error"


# The error a refusal with a given status is (its envelope's type); any other status is an invalid request.
ERROR_FOR_STATUS: dict[int, type[ConsoleError]] = {403: PermissionDenied, 409: PreconditionFailed}


def error_for_status(status: int) -> type[ConsoleError]:
    """The domain error class a refusal answering ``status`` is raised as."""
    return ERROR_FOR_STATUS.get(status, InvalidRequest)


class Refused(ConsoleError):
    """The console's checks refused a change. Carries the decision and what to record."""

    def __init__(self, decision, request, *, set_aside: dict[str, Any] | None = None) -> None:
        super().__init__(decision.message, code=decision.code, extra={})
        self.decision = decision
        self.request = request
        self.set_aside = set_aside
        self.status = decision.status  # read from STATUS_FOR_REASON
        self.error_type = error_for_status(self.status).error_type
