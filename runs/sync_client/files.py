"""Local file operations and modes: where a file belongs, writing saved copies atomically with
the store's modes (read-only stores read-only), removing, and the ``.refused`` reason files.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import time
from collections.abc import Iterator
from pathlib import Path

from .state import (
    CONFLICT_SUFFIX,
    DIR_MODE,
    FILE_MODE,
    PROJECT_FOLDERS,
    READ_ONLY,
    REFUSED_SUFFIX,
    RO_DIR_MODE,
    RO_FILE_MODE,
    Entry,
    FolderState,
    PassResult,
    sha256_bytes,
)


class FilesMixin(FolderState):
    """The folder's files on disk, with the store's modes."""

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

    def _keep_losing_text(self, rel: str, text: str) -> str:
        """Keep a text that lost a race beside its file as ``<file>.conflict``; returns that file's name.

        An earlier copy holding another text is never overwritten: the next free ``<file>.N.conflict``
        is taken instead. The same text lost twice is kept once.
        """
        data = text.encode("utf-8")
        path = self.root / (rel + CONFLICT_SUFFIX)
        n = 1
        while True:
            try:
                if path.read_bytes() == data:
                    return path.name
            except FileNotFoundError:
                break
            n += 1
            path = self.root / f"{rel}.{n}{CONFLICT_SUFFIX}"
        att = self._att_for(rel)
        if att is not None:
            self._ensure_dir(path.parent, att)
        with self._writable(path.parent):
            tmp = self.state_dir / "tmp" / secrets.token_hex(8)
            tmp.write_bytes(data)
            os.chmod(tmp, FILE_MODE)
            os.replace(tmp, path)
        return path.name

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

