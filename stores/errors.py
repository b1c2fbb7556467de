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


class Refused(ConsoleError):
    """The console's checks refused a change. Carries the decision and what to record."""

    def __init__(self, decision, request, *, set_aside: dict[str, Any] | None = None) -> None:
        super().__init__(decision.message, code=decision.code, extra={})
        self.decision = decision
        self.request = request
        self.set_aside = set_aside
        self.status = decision.status
        if self.status == 403:
            self.error_type = "permission_error"
        elif self.status == 409:
            self.error_type = "memory_precondition_failed_error"
        else:
            self.error_type = "invalid_request_error"
