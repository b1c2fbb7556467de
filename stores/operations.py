"""The one operation vocabulary: what a change asks for, and what the version it writes records.

A change (``ChangeRequest.operation``, a refusal's ``operation``) is one of ``Operation``; the
version it writes records one of ``VersionOperation``, the API's ``operation`` field (Anthropic's
created, modified and deleted). ``VERSION_OPERATION`` is the one table from the first to the second.
"""

from __future__ import annotations

from django.db import models


class Operation(models.TextChoices):
    """What a change asks of a store."""

    CREATE = "create", "Create"
    UPDATE = "update", "Update (or rename)"
    REVERT = "revert", "Revert to an older version's text"
    DELETE = "delete", "Delete"
    RESTORE = "restore", "Restore"
    REDACT = "redact", "Redact all versions"
    SET_ASIDE_USE = "set_aside_use", "Use a set-aside text"
    SET_ASIDE_DISMISS = "set_aside_dismiss", "Dismiss a set-aside text"


class VersionOperation(models.TextChoices):
    """What a version records (the API's ``operation``)."""

    CREATED = "created", "Created"
    MODIFIED = "modified", "Modified"
    DELETED = "deleted", "Deleted"


# The version each change writes; a redaction and a dismissal write none.
VERSION_OPERATION: dict[str, VersionOperation] = {
    Operation.CREATE: VersionOperation.CREATED,
    Operation.RESTORE: VersionOperation.CREATED,  # the memory is back, with its id
    Operation.UPDATE: VersionOperation.MODIFIED,
    Operation.REVERT: VersionOperation.MODIFIED,
    Operation.SET_ASIDE_USE: VersionOperation.MODIFIED,
    Operation.DELETE: VersionOperation.DELETED,
}
