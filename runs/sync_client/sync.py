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

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import secrets
import shutil
import stat
import time
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .http import Api, ApiError

STATE_DIR = ".memory-sync"
STATE_FILE = "state.json"
REFUSED_SUFFIX = ".refused"
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
    complete: bool = True

    def as_json(self) -> dict[str, Any]:
        return {
            "pushed": self.pushed,
            "pulled": self.pulled,
            "deleted": self.deleted,
            "refused": self.refused,
            "failed": self.failed,
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
        self.complete = self.complete and other.complete


@dataclass
class _Scan:
    changed: dict[str, bytes] = field(default_factory=dict)
    new: dict[str, bytes] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)


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


class Folder:
    """A checked-out run folder: its state, and the passes that keep it in step with the console."""

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
    def open(cls, root: str | os.PathLike[str], api: Api | None = None) -> Folder:
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

    # Checkout.

    @classmethod
    def checkout(cls, root: str | os.PathLike[str], *, url: str, token: str, run_id: str,
                 api: Api | None = None) -> tuple[Folder, dict[str, Any]]:
        """Make the run folder: every attached store, read-only ones read-only, and INSTRUCTIONS.md.

        ``root`` must not exist or be empty. It is made readable by its owner only. On failure,
        a folder this call made is removed again, so the checkout can simply be repeated.
        """
        path = Path(root).absolute()
        if path.exists() and (not path.is_dir() or any(path.iterdir())):
            raise UsageError(f"{path} must not exist or be empty.")
        check_console_url(url)
        api = api or Api(url, token)
        try:
            snapshot = api.get(f"/v1/runs/{run_id}/snapshot")
        except ApiError as exc:
            raise SyncFailed(f"could not fetch the run's stores: {exc}") from None
        made = not path.exists()
        try:
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.chmod(path, 0o700)
            (path / STATE_DIR).mkdir(mode=0o700)
            (path / STATE_DIR / "tmp").mkdir(mode=0o700)
            run = snapshot.get("run") or {}
            state = {
                "version": 1,
                "url": url.rstrip("/"),
                "run_id": run_id,
                "token": token,
                "agent": run.get("agent", ""),
                "ticket_key": run.get("ticket_key", ""),
                "cursor": snapshot["cursor"],
                "stores": [{k: s[k] for k in ("memory_store_id", "kind", "name", "access", "folder")}
                           for s in snapshot["stores"]],
                "files": {},
            }
            folder = cls(path, state, api)
            counts = folder._write_snapshot(snapshot)
            (path / INSTRUCTIONS_FILE).write_text(snapshot.get("instructions") or "", encoding="utf-8")
            folder.save(force=True)
        except BaseException:
            if made:
                _remove_tree(path)
            raise
        return folder, {"run_id": run_id, "dir": str(path), "files": sum(counts.values()), "stores": [
            {"folder": s["folder"], "access": s["access"], "files": counts.get(s["memory_store_id"], 0)}
            for s in folder.stores
        ]}

    def _write_snapshot(self, snapshot: dict[str, Any]) -> dict[str, int]:
        counts: dict[str, int] = {}
        self._lay_out()
        for store in snapshot["stores"]:
            att = self.store_by_id[store["memory_store_id"]]
            n = 0
            for memory in store["memories"]:
                if memory.get("deleted") or not _safe_memory_path(memory["path"]):
                    continue
                self._put(att, att["folder"] + memory["path"], memory["content"], memory["id"],
                          memory["content_sha256"], fresh=True)
                n += 1
            counts[att["memory_store_id"]] = n
        return counts

    def _lay_out(self) -> None:
        """Every store's folder, and the project store's fixed folders and the agent's own, even empty."""
        for att in self.stores:
            base = self.root / att["folder"]
            self._ensure_dir(base, att)
            if att["kind"] == "project":
                for name in PROJECT_FOLDERS:
                    self._ensure_dir(base / name, att)
                if self.state.get("agent"):
                    self._ensure_dir(base / "agents" / self.state["agent"], att)

    # Local file operations.

    def _att_for(self, rel: str) -> dict[str, str] | None:
        for att in self._folders:
            if rel.startswith(att["folder"] + "/"):
                return att
        return None

    @staticmethod
    def _memory_path(att: dict[str, str], rel: str) -> str:
        return rel[len(att["folder"]):]

    @staticmethod
    def _read_only(att: dict[str, str]) -> bool:
        return att["access"] == READ_ONLY

    @contextlib.contextmanager
    def _writable(self, directory: Path) -> Iterator[None]:
        """Let the client write in a read-only store's folder for a moment, then seal it again."""
        try:
            mode = stat.S_IMODE(os.stat(directory).st_mode)
        except FileNotFoundError:
            yield
            return
        if mode & stat.S_IWUSR:
            yield
            return
        os.chmod(directory, mode | stat.S_IWUSR)
        try:
            yield
        finally:
            os.chmod(directory, mode)

    def _ensure_dir(self, directory: Path, att: dict[str, str]) -> None:
        if directory in self._known_dirs:
            return
        if directory.is_dir():
            self._known_dirs.add(directory)
            return
        if directory.parent != self.root and not directory.parent.is_dir():
            self._ensure_dir(directory.parent, att)
        with self._writable(directory.parent):
            os.mkdir(directory, DIR_MODE)
        inside_store = directory == self.root / att["folder"] or str(directory).startswith(
            str(self.root / att["folder"]) + os.sep
        )
        if self._read_only(att) and inside_store:
            os.chmod(directory, RO_DIR_MODE)
        self._known_dirs.add(directory)

    def _put(self, att: dict[str, str], rel: str, content: str, memory_id: str, sha: str, *,
             fresh: bool = False) -> None:
        """Write a saved copy into the folder with the store's modes, and track it.

        Atomically (a temporary file renamed over the old one), so the agent never reads half a
        file; ``fresh`` (checkout into an empty folder) writes in place, since nobody reads yet.
        """
        path = self.root / rel
        self._ensure_dir(path.parent, att)
        data = content.encode("utf-8")
        file_mode = RO_FILE_MODE if self._read_only(att) else FILE_MODE
        if fresh:
            with self._writable(path.parent):
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, file_mode)
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                st = os.fstat(fh.fileno())
            if stat.S_IMODE(st.st_mode) != file_mode:  # the umask took bits away
                os.chmod(path, file_mode)
        else:
            tmp = self.state_dir / "tmp" / secrets.token_hex(8)
            with open(tmp, "wb") as fh:
                fh.write(data)
            os.chmod(tmp, file_mode)
            with self._writable(path.parent):
                os.replace(tmp, path)
            st = os.lstat(path)
            if self._read_only(att):
                self._seal(path.parent, att)
        old = self.files.get(rel)
        if old is not None and old.memory_id != memory_id:
            self.by_memory.pop(old.memory_id, None)
        self.files[rel] = Entry(att["memory_store_id"], memory_id, sha, st.st_size, st.st_mtime_ns, time.time_ns())
        self.by_memory[memory_id] = rel
        self._dirty_state = True

    def _remove(self, rel: str) -> None:
        path = self.root / rel
        with self._writable(path.parent), contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        att = self._att_for(rel)
        if att is not None and self._read_only(att):
            self._seal(path.parent, att)

    def _seal(self, directory: Path, att: dict[str, str]) -> None:
        """Make a read-only store's folders read-only again, up to the store's own folder.

        The agent may have opened one up (chmod) to change a file there; restoring the file alone
        would leave the folder writable.
        """
        top = self.root / att["folder"]
        while directory == top or top in directory.parents:
            with contextlib.suppress(FileNotFoundError):
                if stat.S_IMODE(os.stat(directory).st_mode) != RO_DIR_MODE:
                    os.chmod(directory, RO_DIR_MODE)
            if directory == top:
                break
            directory = directory.parent

    def _forget(self, rel: str) -> None:
        entry = self.files.pop(rel, None)
        if entry is not None and self.by_memory.get(entry.memory_id) == rel:
            del self.by_memory[entry.memory_id]
        self._dirty_state = True

    def _refuse(self, result: PassResult, rel: str, code: str, message: str) -> None:
        """Write the reason beside the file: the code on the first line, then the message."""
        path = self.root / (rel + REFUSED_SUFFIX)
        att = self._att_for(rel)
        if att is not None:
            self._ensure_dir(path.parent, att)
        with self._writable(path.parent):
            tmp = self.state_dir / "tmp" / secrets.token_hex(8)
            tmp.write_text(f"{code}\n{message.strip()}\n", encoding="utf-8")
            os.chmod(tmp, FILE_MODE)
            os.replace(tmp, path)
        result.refused.append({"path": rel, "reason_code": code})

    def _clear_refused(self, rel: str) -> None:
        path = self.root / (rel + REFUSED_SUFFIX)
        if path.exists():
            with self._writable(path.parent), contextlib.suppress(FileNotFoundError):
                os.unlink(path)

    def _holds(self, rel: str, sha: str) -> bool:
        """True when the file is gone or still holds the saved copy (nothing local to lose)."""
        try:
            data = (self.root / rel).read_bytes()
        except FileNotFoundError:
            return True
        except IsADirectoryError:
            return False
        return sha256_bytes(data) == sha

    # The scan: sizes and times first, contents only for files that moved.

    def _walk(self, directory: str, rel_dir: str) -> Iterator[tuple[str, os.stat_result]]:
        """Every regular file below ``directory`` as (path relative to the folder, stat), one stat each."""
        try:
            entries = list(os.scandir(directory))
        except (FileNotFoundError, NotADirectoryError):
            return
        for entry in entries:
            name = entry.name
            if name.startswith("."):
                continue  # hidden files are never memories (and never uploaded)
            try:
                st = entry.stat(follow_symlinks=False)
            except FileNotFoundError:
                continue
            if stat.S_ISDIR(st.st_mode):
                yield from self._walk(entry.path, f"{rel_dir}/{name}")
            elif stat.S_ISREG(st.st_mode) and not name.endswith(REFUSED_SUFFIX):
                yield f"{rel_dir}/{name}", st

    def _scan(self) -> _Scan:
        scan = _Scan()
        now = time.time_ns()
        seen: set[str] = set()
        # Store folders never nest (project, agent, practice, shared/<name>, toolsets/<name>), but a
        # deeper one would win: a file is counted once, under the store _att_for names.
        nested = any(a is not b and b["folder"].startswith(a["folder"] + "/") for a in self.stores for b in self.stores)
        for att in self.stores:
            for rel, st in self._walk(str(self.root / att["folder"]), att["folder"]):
                if nested and self._att_for(rel) is not att:
                    continue
                entry = self.files.get(rel)
                if (
                    entry is not None
                    and entry.size == st.st_size
                    and entry.mtime_ns == st.st_mtime_ns
                    and entry.mtime_ns < entry.checked_ns - RACY_NS
                ):
                    seen.add(rel)
                    continue
                try:
                    data = (self.root / rel).read_bytes()
                except (FileNotFoundError, IsADirectoryError):
                    continue
                seen.add(rel)
                if entry is None:
                    scan.new[rel] = data
                elif sha256_bytes(data) == entry.sha:
                    entry.size, entry.mtime_ns, entry.checked_ns = st.st_size, st.st_mtime_ns, now
                    self._dirty_state = True
                else:
                    scan.changed[rel] = data
        scan.missing = sorted(rel for rel in self.files if rel not in seen)
        return scan

    # A pass.

    def sync_pass(self) -> PassResult:
        """One pass: scan, undo what may not change, push, pull the change feed, save the state."""
        result = PassResult()
        self._known_dirs.clear()  # the agent may have removed folders since the last pass
        try:
            scan = self._scan()
            dirty = self._push(scan, result)
            self._lay_out()  # a folder removed wholesale comes back, as at checkout (a few stats)
            self._pull(result, dirty)
        except _Abort:
            result.complete = False
        except SyncFailed as exc:
            # The token stopped mid-pass (an open lesson prompt answered by a note this pass saved):
            # say what was done before it stopped.
            result.complete = False
            if exc.result is None:
                exc.result = result
            raise
        finally:
            self.save()
        return result

    def _call(self, result: PassResult, rel: str, fn: Callable[[], dict[str, Any]]) -> dict[str, Any] | ApiError:
        """Make one request: the answer, or a lasting ApiError to act on. Transient ones are noted and
        returned too; when the console stops answering, the rest of the pass is abandoned."""
        try:
            return fn()
        except ApiError as exc:
            if exc.status == 401:
                raise SyncFailed(
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

    def _saved_copy(self, result: PassResult, rel: str, att: dict[str, str], memory_id: str) -> dict | None | ApiError:
        """The saved copy of a memory (None when it is gone), or the transient error that stopped the fetch."""
        answer = self._call(result, rel, lambda: self.api.get(f"{self._memories(att)}/{memory_id}", view="full"))
        if isinstance(answer, ApiError):
            return None if answer.status == 404 else answer
        return answer

    def _restore(self, result: PassResult, rel: str, att: dict[str, str], entry: Entry | None,
                 copies: dict[str, dict | None] | None = None) -> bool:
        """Put the saved copy back at ``rel`` (or take the file away when there is none). False when the
        console could not be asked; the file is then left as it is for the next pass."""
        if entry is None:
            self._remove(rel)
            return True
        if copies is not None:  # a snapshot of every saved copy: absent means gone
            saved: dict | None | ApiError = copies.get(entry.memory_id)
        else:
            saved = self._saved_copy(result, rel, att, entry.memory_id)
        if isinstance(saved, ApiError):
            return False
        if saved is None:
            self._remove(rel)
            self._forget(rel)
            return True
        self._forget(rel)
        target = att["folder"] + saved["path"] if _safe_memory_path(saved.get("path")) else rel
        if target != rel:
            self._remove(rel)
        self._put(att, target, saved["content"] or "", saved["id"], saved["content_sha256"])
        return True

    def _undo(self, result: PassResult, rel: str, att: dict[str, str], entry: Entry | None, code: str,
              message: str, copies: dict[str, dict | None] | None = None) -> None:
        if self._restore(result, rel, att, entry, copies):
            self._refuse(result, rel, code, message)

    def _bulk_copies(self, result: PassResult) -> dict[str, dict | None] | None:
        """Every saved copy at once (a snapshot), to restore many files with one request."""
        answer = self._call(result, "", lambda: self.api.get(f"/v1/runs/{self.run_id}/snapshot"))
        if isinstance(answer, ApiError):
            return None
        return {m["id"]: {**m, "memory_store_id": s["memory_store_id"]}
                for s in answer["stores"] for m in s["memories"]}

    def _push(self, scan: _Scan, result: PassResult) -> set[str]:
        """Push local changes; returns the files whose change is still unsaved (kept for the next pass)."""
        unsaved: set[str] = set()

        def keep(rel: str) -> None:
            unsaved.add(rel)

        # Read-only stores: every change is restored, never sent.
        for rel in list(scan.changed):
            att = self._att_for(rel)
            if att is not None and self._read_only(att):
                del scan.changed[rel]
                self._undo_or_keep(result, rel, att, self.files[rel], "read_only_store",
                                   f"The {att['kind']} store '{att['name']}' is read-only; the file was put back as "
                                   "saved. People keep it in the console.", keep)
        for rel in list(scan.new):
            att = self._att_for(rel)
            if att is not None and self._read_only(att):
                del scan.new[rel]
                self._undo(result, rel, att, None, "read_only_store",
                           f"The {att['kind']} store '{att['name']}' is read-only; new files there are taken away.")

        # A file gone whose bytes reappear at a new path in the same store is a rename.
        renames: list[tuple[str, str]] = []
        for old in list(scan.missing):
            entry = self.files[old]
            att = self.store_by_id.get(entry.store)
            if att is None or self._read_only(att):
                continue
            for new, data in scan.new.items():
                if self._att_for(new) is att and sha256_bytes(data) == entry.sha:
                    renames.append((old, new))
                    scan.missing.remove(old)
                    del scan.new[new]
                    break

        # Never a wipe: two or more files gone at once come back.
        if len(scan.missing) >= 2:
            copies = self._bulk_copies(result) if len(scan.missing) > BULK_RESTORE else None
            for rel in scan.missing:
                entry = self.files[rel]
                att = self.store_by_id.get(entry.store)
                if att is None:
                    self._forget(rel)
                    continue
                ro = self._read_only(att)
                self._undo_or_keep(
                    result, rel, att, entry, "read_only_store" if ro else "deleted_together",
                    f"The {att['kind']} store '{att['name']}' is read-only; the file was put back." if ro else
                    f"{len(scan.missing)} files went missing at once, so none was deleted and they were put back "
                    "(memory-sync never deletes several files in one pass). Delete one file at a time.",
                    keep, copies,
                )
            scan.missing = []
        for rel in list(scan.missing):
            att = self.store_by_id.get(self.files[rel].store)
            if att is not None and self._read_only(att):
                scan.missing.remove(rel)
                self._undo_or_keep(result, rel, att, self.files[rel], "read_only_store",
                                   f"The {att['kind']} store '{att['name']}' is read-only; the file was put back.",
                                   keep)

        for old, new in renames:
            self._push_rename(result, old, new, keep)
        for rel, data in sorted(scan.changed.items()):
            self._push_update(result, rel, data, keep)
        for rel, data in sorted(scan.new.items()):
            self._push_create(result, rel, data, keep)
        for rel in scan.missing:
            self._push_delete(result, rel, keep)
        return unsaved

    def _undo_or_keep(self, result, rel, att, entry, code, message, keep, copies=None) -> None:
        if self._restore(result, rel, att, entry, copies):
            self._refuse(result, rel, code, message)
        else:
            keep(rel)

    @staticmethod
    def _code(exc: ApiError) -> str:
        if exc.code:
            return exc.code
        if exc.error_type == "memory_path_conflict_error":
            return "path_conflict"
        return f"http_{exc.status}"

    def _text(self, result: PassResult, rel: str, att: dict[str, str], data: bytes,
              entry: Entry | None) -> str | None:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            self._undo(result, rel, att, entry, "content_invalid",
                       "The file is not UTF-8 text; memories are Markdown text. "
                       + ("It was put back as saved." if entry is not None else "The new file was taken away."))
            return None

    def _saved(self, result: PassResult, rel: str, att: dict[str, str], answer: dict[str, Any]) -> None:
        """A change the console saved: track the new saved copy and drop any old reason file."""
        path = self.root / rel
        st = os.lstat(path)
        old = self.files.get(rel)
        if old is not None:
            self.by_memory.pop(old.memory_id, None)
        # The file's time is the agent's, so it stays "racy" for a moment and is read again.
        self.files[rel] = Entry(att["memory_store_id"], answer["id"], answer["content_sha256"], st.st_size,
                                st.st_mtime_ns, time.time_ns())
        self.by_memory[answer["id"]] = rel
        self._dirty_state = True
        self._clear_refused(rel)
        result.pushed += 1

    def _push_update(self, result: PassResult, rel: str, data: bytes, keep) -> None:
        entry = self.files[rel]
        att = self.store_by_id.get(entry.store) or self._att_for(rel)
        text = self._text(result, rel, att, data, entry)
        if text is None:
            return
        body = {"content": text, "precondition": {"type": "content_sha256", "content_sha256": entry.sha}}
        answer = self._call(result, rel, lambda: self.api.post(f"{self._memories(att)}/{entry.memory_id}", body))
        if not isinstance(answer, ApiError):
            self._saved(result, rel, att, answer)
            return
        if answer.transient:
            keep(rel)
        elif answer.status == 404:
            # Deleted since this copy was saved: the edit is the only copy, so it is made again,
            # unless a person deleted it after the run started (then the run loses the edit).
            self._forget(rel)
            self._push_create(result, rel, data, keep)
        elif answer.status == 409:
            self._undo_or_keep(result, rel, att, entry, self._code(answer), answer.message
                               or "The saved copy changed first and wins; your text was kept aside.", keep)
        else:
            self._undo_or_keep(result, rel, att, entry, self._code(answer), answer.message, keep)

    def _push_create(self, result: PassResult, rel: str, data: bytes, keep) -> None:
        att = self._att_for(rel)
        if att is None:
            return
        text = self._text(result, rel, att, data, None)
        if text is None:
            return
        path = self._memory_path(att, rel)
        answer = self._call(result, rel, lambda: self.api.post(self._memories(att), {"path": path, "content": text}))
        if not isinstance(answer, ApiError):
            self._saved(result, rel, att, answer)
            return
        if answer.transient:
            keep(rel)
        elif answer.status == 409 and answer.error.get("conflicting_path") == path:
            self._lost_create(result, rel, att, text, answer, keep)
        else:
            self._undo(result, rel, att, None, self._code(answer), answer.message)

    def _lost_create(self, result: PassResult, rel: str, att: dict[str, str], text: str, conflict: ApiError,
                     keep) -> None:
        """Another writer created the same path first: its saved copy wins, this text is kept aside.

        The text is sent as a change based on an empty file (what this writer started from), so
        the console keeps it aside exactly as it keeps the losing side of any concurrent edit.
        """
        memory_id = conflict.error.get("conflicting_memory_id")
        if not memory_id:
            self._undo(result, rel, att, None, "path_conflict", conflict.message)
            return
        if sha256_bytes(text.encode("utf-8")) != EMPTY_SHA:
            body = {"content": text, "precondition": {"type": "content_sha256", "content_sha256": EMPTY_SHA}}
            answer = self._call(result, rel, lambda: self.api.post(f"{self._memories(att)}/{memory_id}", body))
            if not isinstance(answer, ApiError):
                self._saved(result, rel, att, answer)  # the saved copy was empty (or already this text)
                return
            if answer.transient:
                keep(rel)
                return
            if answer.status != 409:
                self._undo(result, rel, att, None, self._code(answer), answer.message)
                return
        saved = self._saved_copy(result, rel, att, memory_id)
        if isinstance(saved, ApiError):
            keep(rel)
            return
        if saved is None:
            keep(rel)  # deleted meanwhile: the next pass creates it again
            return
        self._remove(rel)
        self._put(att, att["folder"] + saved["path"], saved["content"] or "", saved["id"], saved["content_sha256"])
        if saved["content_sha256"] != sha256_bytes(text.encode("utf-8")):
            self._refuse(result, rel, "stale_base",
                         f"Another writer saved {saved['path']} first; its copy wins and is now in the folder. "
                         "Your text was kept aside for a person to fold in.")

    def _push_rename(self, result: PassResult, old: str, new: str, keep) -> None:
        entry = self.files[old]
        att = self.store_by_id[entry.store]
        body = {"path": self._memory_path(att, new),
                "precondition": {"type": "content_sha256", "content_sha256": entry.sha}}
        answer = self._call(result, new, lambda: self.api.post(f"{self._memories(att)}/{entry.memory_id}", body))
        if not isinstance(answer, ApiError):
            self._forget(old)
            self._saved(result, new, att, answer)
            return
        if answer.transient:
            keep(old)
            keep(new)
            return
        if answer.status == 404:  # gone meanwhile: the new file is a new memory
            self._forget(old)
            data = (self.root / new).read_bytes() if (self.root / new).exists() else b""
            self._push_create(result, new, data, keep)
            return
        # Refused: the file goes back to where it was saved, and the reason sits beside the new name.
        self._remove(new)
        if self._restore(result, old, att, entry):
            self._refuse(result, new, self._code(answer), answer.message)
        else:
            keep(old)

    def _push_delete(self, result: PassResult, rel: str, keep) -> None:
        entry = self.files[rel]
        att = self.store_by_id.get(entry.store)
        if att is None:
            self._forget(rel)
            return
        answer = self._call(result, rel, lambda: self.api.delete(
            f"{self._memories(att)}/{entry.memory_id}", expected_content_sha256=entry.sha))
        if not isinstance(answer, ApiError) or answer.status == 404:
            self._forget(rel)
            result.deleted += 1
            return
        if answer.transient:
            keep(rel)
            return
        message = answer.message
        if answer.status == 409:
            message = "The saved copy changed since this file was last synced, so the deletion lost and the saved copy " \
                      "was put back."
        self._undo_or_keep(result, rel, att, entry, self._code(answer), message, keep)

    # The pull: the change feed since the cursor.

    def _pull(self, result: PassResult, unsaved: set[str]) -> None:
        cursor = self.state["cursor"]
        while True:
            answer = self._call(result, "", lambda c=cursor: self.api.get(f"/v1/runs/{self.run_id}/changes", cursor=c))
            if isinstance(answer, ApiError):
                if not answer.transient:
                    raise SyncFailed(f"the console refused the change feed: {answer}")
                return
            for change in answer.get("changes", []):
                self._apply(result, change, unsaved)
            if answer["cursor"] != cursor:
                cursor = self.state["cursor"] = answer["cursor"]
                self._dirty_state = True
            if not answer.get("more"):
                return

    def _apply(self, result: PassResult, change: dict[str, Any], unsaved: set[str]) -> None:
        att = self.store_by_id.get(change["memory_store_id"])
        if att is None:
            return
        rel = self.by_memory.get(change["id"])
        entry = self.files.get(rel) if rel else None
        if rel in unsaved:
            return  # a local change waits for the next pass; it will meet the saved copy then
        if change["deleted"]:
            if entry is None:
                return
            if self._holds(rel, entry.sha):
                self._remove(rel)
                self._forget(rel)
                result.deleted += 1
            return
        if not _safe_memory_path(change["path"]):
            return
        target = att["folder"] + change["path"]
        if entry is not None:
            if rel == target and entry.sha == change["content_sha256"]:
                return  # this folder's own change, coming back
            if not self._holds(rel, entry.sha):
                return  # edited since the scan: the next pass pushes it and meets the saved copy
            if rel != target:
                self._remove(rel)
                self._forget(rel)
        else:
            if target in self.files and self.files[target].memory_id != change["id"]:
                return  # another memory's file is still here (its deletion is pending)
            path = self.root / target
            if path.exists():
                try:
                    same = sha256_bytes(path.read_bytes()) == change["content_sha256"]
                except OSError:
                    return
                if not same:
                    return  # an unsaved local file at this path: the next pass settles it
        self._put(att, target, change["content"] or "", change["id"], change["content_sha256"])
        result.pulled += 1

    # Ending the run.

    def end(self, signals: dict[str, Any]) -> dict[str, Any]:
        """A last pass, then end the run with its signals; returns ``{lesson_prompt, pass}``.

        The run is not ended when the last pass could not save everything: ending would stop the
        token and strand the text.
        """
        result = self.sync_pass()
        if not result.complete:
            raise SyncFailed(
                "the last pass could not save every change (" + "; ".join(f["error"] for f in result.failed[:3])
                + "), so the run was not ended. Run `memory-sync end` again."
            )
        try:
            answer = self.api.post(f"/v1/runs/{self.run_id}/end", signals)
        except ApiError as exc:
            raise SyncFailed(f"could not end the run: {exc}") from None
        self.state["ended"] = True
        self.state["lesson_prompt"] = answer.get("lesson_prompt")
        self.save(force=True)
        return {"lesson_prompt": answer.get("lesson_prompt"), "pass": result}

    def answer(self, why: str) -> dict[str, Any]:
        """Answer the lesson prompt: nothing to record, and why."""
        try:
            answer = self.api.post(f"/v1/runs/{self.run_id}/lesson", {"nothing_to_record": True, "why": why})
        except ApiError as exc:
            if exc.status == 401:
                raise SyncFailed(
                    "the console no longer accepts the run token: the prompt was answered or closed already, "
                    "or the run was never asked"
                ) from None
            raise SyncFailed(f"could not answer the lesson prompt: {exc}") from None
        return {"lesson_answer": answer.get("lesson_answer")}


def _remove_tree(path: Path) -> None:
    """Remove a folder this client made, read-only parts included."""
    def unlock(func, target, _exc):
        os.chmod(os.path.dirname(target), 0o700)
        if os.path.isdir(target):
            os.chmod(target, 0o700)
        func(target)

    shutil.rmtree(path, onerror=unlock)
