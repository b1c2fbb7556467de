"""A folder of Markdown files in and out of a store.

Imports go through the memory services, so every file meets the same checks as every other
door (the writer's door is ``import``): a refused file is reported with its reason code and
recorded like any refusal, and the rest of the import goes on. Nothing is ever deleted: files
missing from the folder leave their memories alone.
"""

from __future__ import annotations

import os
import tempfile
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from stores.console_checks.detectors.secrets import redact
from stores.console_checks.reasons import Reason
from stores.console_checks.request import Writer
from stores.console_checks.what_content import MAX_CONTENT_BYTES
from stores.errors import (
    Conflict,
    ConsoleError,
    InvalidRequest,
    NotFound,
    PathConflict,
    PreconditionFailed,
    Refused,
)
from stores.models import Memory, Store
from stores.selectors import live_memories
from stores.services.memories import memory_create, memory_update

T = TypeVar("T")
Progress = Callable[[Iterable[Any], int, str], Iterator[Any]]

# A file far past the content limit is refused without reading it whole.
READ_LIMIT_BYTES = 4 * MAX_CONTENT_BYTES

_FALLBACK_CODES: tuple[tuple[type[ConsoleError], str], ...] = (
    (PathConflict, Reason.PATH_CONFLICT),
    (PreconditionFailed, Reason.PRECONDITION_FAILED),
    (NotFound, Reason.NOT_FOUND),
    (Conflict, Reason.CONFLICT),
    (InvalidRequest, Reason.INVALID_REQUEST),
)


@dataclass
class TransferResult:
    """What an import or export did, file by file, in the commands' JSON shape."""

    memory_store_id: str
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    refused: list[dict[str, str]] = field(default_factory=list)

    def refuse(self, path: str, code: str) -> None:
        # A file named after a secret must not print it back: the report goes to terminals and logs.
        if code == Reason.SECRET_DETECTED:
            path = redact(path)
        self.refused.append({"path": path, "error_code": code})

    def as_dict(self) -> dict[str, Any]:
        return {
            "memory_store_id": self.memory_store_id,
            "created": self.created,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "refused": self.refused,
        }


def error_code_of(exc: ConsoleError) -> str:
    """The stable code of a domain error: the check's reason code, or one named after its kind."""
    if exc.code:
        return exc.code
    for kind, code in _FALLBACK_CODES:
        if isinstance(exc, kind):
            return code
    return Reason.ERROR


def _no_progress(items: Iterable[T], total: int, label: str) -> Iterator[T]:
    yield from items


def _printable(path: str) -> str:
    """A path safe to print and store: undecodable bytes from the file system shown escaped."""
    return path.encode("utf-8", "backslashreplace").decode("utf-8")


def _folder_files(folder: Path) -> tuple[list[tuple[str, Path]], list[str]]:
    """Every file below the folder as (memory path, file), sorted, and the hidden folders left out.

    Symlinked folders are not followed. A hidden folder (``.git``) is not read at all: no memory
    path may pass through it, and its files would each be one more refusal to record.
    """
    found = []
    hidden = []
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in [d for d in dirnames if d.startswith(".")]:
            dirnames.remove(name)
            hidden.append("/" + unicodedata.normalize("NFC", (Path(dirpath) / name).relative_to(folder).as_posix()) + "/")
        dirnames.sort()
        for name in filenames:
            file = Path(dirpath) / name
            rel = file.relative_to(folder).as_posix()
            # Some file systems (macOS) hand back decomposed names; memory paths are NFC.
            found.append(("/" + unicodedata.normalize("NFC", rel), file))
    found.sort(key=lambda item: item[0])
    return found, sorted(hidden)


def memory_put(*, writer: Writer, store: Store, path: str, content: str, reason: str = "") -> str:
    """Make the memory at ``path`` hold ``content``: create it, update it, or leave it.

    Returns ``created``, ``updated`` or ``unchanged``. The update is based on the copy read
    here, so a change saved meanwhile by someone else wins and this text is kept aside.
    """
    current = live_memories(store).filter(path=path).first()
    if current is None:
        memory_create(writer=writer, store=store, path=path, content=content, reason=reason)
        return "created"
    if current.content == content:
        return "unchanged"
    _, changed = memory_update(
        writer=writer,
        store=store,
        memory_id=current.public_id,
        content=content,
        base_sha256=current.content_sha256,
        reason=reason,
    )
    return "updated" if changed else "unchanged"


def store_import(
    store: Store, folder: str | os.PathLike[str], writer: Writer, *, progress: Progress | None = None
) -> TransferResult:
    """Import every file below ``folder`` into ``store`` as the memory at its relative path.

    A file that is refused (a secret, a path breaking the rules, a file that is not ``.md``,
    text that is not UTF-8) is listed with its reason code and the import goes on; a hidden
    folder is listed once (``/.git/``, ``path_invalid``) and not read. A refusal
    of the writer itself (the who check, 403) stops the import at once: it would refuse every
    file alike. Raises InvalidRequest when the folder is missing or the store is archived.
    """
    root = Path(folder)
    if not root.is_dir():
        raise InvalidRequest(f"{root} is not a folder; give the folder of Markdown files to import.")
    if store.archived_at is not None:
        raise InvalidRequest(
            f"The store '{store.name}' is archived: nothing can be imported into it.", code=Reason.STORE_ARCHIVED
        )
    result = TransferResult(memory_store_id=store.public_id)
    files, hidden_folders = _folder_files(root)
    for folder_path in hidden_folders:
        result.refuse(_printable(folder_path), Reason.PATH_INVALID.value)
    for path, file in (progress or _no_progress)(files, len(files), "import"):
        shown = _printable(path)
        if file.is_symlink() or not file.is_file():
            result.refuse(shown, Reason.NOT_A_REGULAR_FILE)
            continue
        if shown != path:
            # A file name that is not UTF-8 can be no memory path (and no database text).
            result.refuse(shown, Reason.PATH_INVALID.value)
            continue
        if file.stat().st_size > READ_LIMIT_BYTES:
            result.refuse(path, Reason.CONTENT_INVALID.value)
            continue
        # Undecodable bytes become lone surrogates, which the content check refuses (content_invalid)
        # and records like any refusal, instead of failing here before the checks see the file.
        content = file.read_bytes().decode("utf-8", "surrogateescape")
        try:
            outcome = memory_put(writer=writer, store=store, path=path, content=content, reason="import")
        except Refused as refused:
            if refused.status == 403:
                raise
            result.refuse(path, error_code_of(refused))
            continue
        except ConsoleError as exc:
            result.refuse(path, error_code_of(exc))
            continue
        setattr(result, outcome, getattr(result, outcome) + 1)
    return result


def _within(root: Path, target: Path) -> bool:
    real_root = os.path.realpath(root)
    return os.path.commonpath([real_root, os.path.realpath(target)]) == real_root


def _write_atomically(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".export-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def store_export(
    store: Store, folder: str | os.PathLike[str], *, progress: Progress | None = None
) -> TransferResult:
    """Write every live memory of ``store`` to ``folder`` at its path, as its exact bytes.

    ``created`` counts new files, ``updated`` files overwritten with other text, ``unchanged``
    files that already held the text. Other files in the folder are left alone. A memory that
    cannot be written (a file or folder in the way) is listed in ``refused`` as ``write_failed``.
    """
    root = Path(folder)
    if root.exists() and not root.is_dir():
        raise InvalidRequest(f"{root} is a file, not a folder; give a folder to export into.")
    root.mkdir(parents=True, exist_ok=True)
    result = TransferResult(memory_store_id=store.public_id)
    memories = list(live_memories(store).order_by("path").only("path", "content"))
    memory: Memory
    for memory in (progress or _no_progress)(memories, len(memories), "export"):
        target = root.joinpath(*memory.path.lstrip("/").split("/"))
        # Paths were checked on the way in; this guards against a symlinked folder in the target.
        if not _within(root, target.parent):
            result.refuse(memory.path, Reason.PATH_INVALID.value)
            continue
        data = memory.content.encode("utf-8")
        try:
            if target.is_file() and not target.is_symlink():
                if target.read_bytes() == data:
                    result.unchanged += 1
                    continue
                outcome = "updated"
            elif target.exists() or target.is_symlink():
                result.refuse(memory.path, Reason.WRITE_FAILED)
                continue
            else:
                outcome = "created"
            _write_atomically(target, data)
        except OSError:
            result.refuse(memory.path, Reason.WRITE_FAILED)
            continue
        setattr(result, outcome, getattr(result, outcome) + 1)
    return result
