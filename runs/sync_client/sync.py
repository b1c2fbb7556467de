"""The run folder and its passes: checkout, push local changes, pull the console's, undo refusals.

Rules the folder keeps:
- A pass scans by file size and time first and reads only files that moved, then pushes local
  changes (each update with the saved copy's ``content_sha256`` as its precondition), then asks
  the console's change feed once for what changed since its cursor. A pass with nothing to do
  is one small request.
- A refused change is undone (back to the saved copy, or away if the file was new) and the
  reason written beside it as ``<file>.refused``: the reason code on the first line, then the
  message. Those files, hidden files and the client's own ``.memory-sync/`` are never uploaded.
- Never a wipe: two or more files gone in one pass are restored, not deleted.
- Transient failures (no answer, 429, 5xx, ``jira_unavailable``) keep the local change for the
  next pass: text is never lost.
- Read-only stores are written with read-only modes, and any change to them is restored.
"""

from .lifecycle import Folder
from .state import (
    BULK_RESTORE,
    EMPTY_SHA,
    INSTRUCTIONS_FILE,
    RACY_NS,
    READ_ONLY,
    REFUSED_SUFFIX,
    STATE_DIR,
    STATE_FILE,
    Entry,
    PassResult,
    SyncFailed,
    UsageError,
    check_console_url,
    sha256_bytes,
)

__all__ = [
    "BULK_RESTORE", "EMPTY_SHA", "INSTRUCTIONS_FILE", "RACY_NS", "READ_ONLY", "REFUSED_SUFFIX", "STATE_DIR",
    "STATE_FILE", "Entry", "Folder", "PassResult", "SyncFailed", "UsageError", "check_console_url", "sha256_bytes",
]
