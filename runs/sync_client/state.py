"""A run folder's state: what was last synced, the exceptions and results of a pass, and the
request plumbing every part of a pass shares (one request, its lasting or transient failure).

The state lives in ``.memory-sync/state.json`` (URL, run, token, cursor, and per file its store,
memory, saved copy's sha and stat), readable by its owner only, and is never uploaded.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import secrets
import shutil
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

from .http import Api, ApiError

STATE_DIR = ".memory-sync"
STATE_FILE = "state.json"
REFUSED_SUFFIX = ".refused"
# The folder's own copy of a text that lost a race (the console keeps it aside too): never uploaded.
CONFLICT_SUFFIX = ".conflict"
INSTRUCTIONS_FILE = "INSTRUCTIONS.md"
PROJECT_FOLDERS = ("conventions", "data", "rationale", "solutions", "issues")
READ_ONLY = "read_only"
# A file written less than this long before it was last looked at is read again, whatever its
# size and time say: a second edit within the file system's time resolution keeps both.
RACY_NS = 2_000_000_000
# Restoring more files than this takes one snapshot instead of a request per file.
BULK_RESTORE = 8
EMPTY_SHA = hashlib.sha256(b"").hexdigest()

FILE_MODE = 0o644
DIR_MODE = 0o755
RO_FILE_MODE = 0o444
RO_DIR_MODE = 0o555


class UsageError(Exception):
    """The command was used wrongly (exit code 2)."""


class SyncFailed(Exception):
    """The command could not do its work (exit code 1). Local changes stay in the folder.

    ``result`` is what the pass did before it had to stop (a note saved before the token stopped
    working, say), or None when no pass ran.
    """

    def __init__(self, message: str, result: PassResult | None = None) -> None:
        super().__init__(message)
        self.result = result


class TokenRefused(SyncFailed):
    """The console no longer takes the run token: the run ended (and any lesson prompt was answered)."""


class _Abort(Exception):
    """The console stopped answering mid-pass: stop asking, keep everything for the next pass."""


@dataclass
class Entry:
    """What the folder knows of one synced file: its store, memory and saved copy's sha, and its stat."""

    store: str
    memory_id: str
    sha: str
    size: int
    mtime_ns: int
    checked_ns: int

    def as_list(self) -> list[Any]:
        return [self.store, self.memory_id, self.sha, self.size, self.mtime_ns, self.checked_ns]

    @classmethod
    def from_list(cls, row: list[Any]) -> Entry:
        return cls(*row)


@dataclass
class PassResult:
    """What one pass did. ``complete`` is False when a transient failure left work for the next pass."""

    pushed: int = 0
    pulled: int = 0
    deleted: int = 0
    refused: list[dict[str, str]] = field(default_factory=list)
    failed: list[dict[str, str]] = field(default_factory=list)
    # Files the folder holds but never syncs, said once (the pass that first sees each).
    ignored: list[dict[str, str]] = field(default_factory=list)
    complete: bool = True

    def as_json(self) -> dict[str, Any]:
        return {
            "pushed": self.pushed,
            "pulled": self.pulled,
            "deleted": self.deleted,
            "refused": self.refused,
            "failed": self.failed,
            "ignored": self.ignored,
            "complete": self.complete,
        }

    @property
    def busy(self) -> bool:
        return bool(self.pushed or self.pulled or self.deleted or self.refused or self.failed)

    def add(self, other: PassResult) -> None:
        self.pushed += other.pushed
        self.pulled += other.pulled
        self.deleted += other.deleted
        self.refused += other.refused
        self.failed += other.failed
        self.ignored += other.ignored
        self.complete = self.complete and other.complete


@dataclass
class _Scan:
    changed: dict[str, bytes] = field(default_factory=dict)
    new: dict[str, bytes] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    ignored: dict[str, str] = field(default_factory=dict)  # path -> why it is not synced


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def check_console_url(url: str) -> None:
    """The console's root URL must be an http(s) address with a host; UsageError otherwise."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError(f"--url must be the console's http(s) root address, such as https://console.example; "
                         f"not {url!r}.")


def _safe_memory_path(path: Any) -> bool:
    """A memory path that stays inside its folder: absolute, no empty, dot or dot-dot segment."""
    if not isinstance(path, str) or not path.startswith("/") or "\x00" in path or "\\" in path:
        return False
    return all(seg and not seg.startswith(".") for seg in path[1:].split("/"))


def _write_private(path: Path, text: str) -> None:
    """Write a file readable by its owner only, atomically."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)



class FolderState:
    """The folder's state and its saving and locking; the base every part of a pass builds on."""

    def __init__(self, root: Path, state: dict[str, Any], api: Api | None = None) -> None:
        self.root = root
        self.state = state
        self.api = api or Api(state["url"], state["token"])
        self.stores: list[dict[str, str]] = state["stores"]
        self.store_by_id = {s["memory_store_id"]: s for s in self.stores}
        self.files: dict[str, Entry] = {rel: Entry.from_list(row) for rel, row in state["files"].items()}
        self.by_memory = {e.memory_id: rel for rel, e in self.files.items()}
        self._dirty_state = False
        self._known_dirs: set[Path] = set()  # directories seen to exist during this command
        # Folders sorted longest first, so a file belongs to the deepest store folder holding it.
        self._folders = sorted(self.stores, key=lambda s: len(s["folder"]), reverse=True)

    # Opening, saving, locking.

    @property
    def state_dir(self) -> Path:
        return self.root / STATE_DIR

    @property
    def run_id(self) -> str:
        return self.state["run_id"]

    @classmethod
    def open(cls, root: str | os.PathLike[str], api: Api | None = None) -> Self:
        """The folder checked out at ``root``; UsageError when there is none."""
        path = Path(root).absolute()
        state_path = path / STATE_DIR / STATE_FILE
        try:
            state = json.loads(state_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise UsageError(f"{path} is not a run folder: run `memory-sync checkout {path} ...` first.") from None
        except ValueError as exc:
            raise SyncFailed(f"{state_path} is damaged ({exc}); check the run out again into a new folder.") from None
        return cls(path, state, api)

    def save(self, force: bool = False) -> None:
        if not (force or self._dirty_state):
            return
        self.state["files"] = {rel: e.as_list() for rel, e in self.files.items()}
        _write_private(self.state_dir / STATE_FILE, json.dumps(self.state, separators=(",", ":")))
        self._dirty_state = False

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """One pass at a time in this folder (a `watch` and a `once` take turns)."""
        fd = os.open(self.state_dir / "lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def _call(self, result: PassResult, rel: str, fn: Callable[[], dict[str, Any]]) -> dict[str, Any] | ApiError:
        """Make one request: the answer, or a lasting ApiError to act on. Transient ones are noted and
        returned too; when the console stops answering, the rest of the pass is abandoned."""
        try:
            return fn()
        except ApiError as exc:
            if exc.status == 401:
                raise TokenRefused(
                    "the console no longer accepts the run token: the run has ended (and any lesson prompt was "
                    f"answered), or the token is wrong ({exc.message})"
                ) from None
            if exc.transient:
                result.failed.append({"path": rel, "error": str(exc)})
                result.complete = False
                if exc.unreachable:
                    raise _Abort from None
            return exc

    def _memories(self, att: dict[str, str]) -> str:
        return f"/v1/memory_stores/{att['memory_store_id']}/memories"


def _remove_tree(path: Path) -> None:
    """Remove a folder this client made, read-only parts included."""
    def unlock(func, target, _exc):
        os.chmod(os.path.dirname(target), 0o700)
        if os.path.isdir(target):
            os.chmod(target, 0o700)
        func(target)

    shutil.rmtree(path, onerror=unlock)
