"""Removing the run's copy of the stores once the run has ended, so no text outlives it on the machine.

A person may delete or redact a memory after the run; a copy left in the folder would keep it.
What goes: every file the folder synced (and the ``.refused`` and ``.conflict`` files beside them,
whose texts the console keeps), the store folders left empty, and ``INSTRUCTIONS.md``; the state
keeps no token and no file list, only that the run ended (so ``answer`` still knows there is no
prompt). What stays: files the folder never syncs (hidden files, links, anything outside the store
folders), each listed. Nothing is removed while a file differs from the console's copy.
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .scan import ScanMixin
from .state import CONFLICT_SUFFIX, INSTRUCTIONS_FILE, REFUSED_SUFFIX, STATE_DIR


@dataclass
class Removal:
    """What ending the run removed from the folder, what it left there, or why it kept everything."""

    removed: list[str] = field(default_factory=list)  # folders and files, relative to the folder
    files: int = 0  # files removed, the store copies' and those beside them
    left: list[str] = field(default_factory=list)  # never synced, so left where they are
    kept: str = ""  # why nothing was removed

    def as_json(self) -> dict[str, Any]:
        return {"removed": self.removed, "files_removed": self.files, "left": self.left, "kept": self.kept or None}


def _open_up(directory: Path) -> None:
    """Let the client remove entries of a read-only store's folder."""
    with contextlib.suppress(FileNotFoundError):
        mode = stat.S_IMODE(os.stat(directory).st_mode)
        if not mode & stat.S_IWUSR:
            os.chmod(directory, mode | stat.S_IWUSR | stat.S_IXUSR)


class CleanupMixin(ScanMixin):
    """The end of a run's folder: its copy of the stores removed, once nothing local is unsaved."""

    def unsynced(self) -> list[str]:
        """Files that differ from the console's copy: new, changed or removed since the last pass."""
        scan = self._scan()
        self.save()
        return sorted([*scan.new, *scan.changed, *scan.missing])

    def remove_copy(self) -> Removal:
        """Remove the run's copy of the stores; keep everything, and say why, when a file is unsaved."""
        waiting = self.unsynced()
        if waiting:
            shown = ", ".join(waiting[:5]) + (", ..." if len(waiting) > 5 else "")
            return Removal(kept=f"{len(waiting)} file(s) differ from the console's copy ({shown}), so nothing "
                                "was removed: they would be lost")
        removal = Removal()
        for att in sorted(self.stores, key=lambda s: s["folder"]):
            self._remove_store_folder(att["folder"], removal)
        instructions = self.root / INSTRUCTIONS_FILE
        with contextlib.suppress(FileNotFoundError):
            instructions.unlink()
            removal.removed.append(INSTRUCTIONS_FILE)
        for entry in sorted(os.scandir(self.root), key=lambda e: e.name):
            known = entry.name in (STATE_DIR, INSTRUCTIONS_FILE) or any(
                entry.name == s["folder"].split("/")[0] for s in self.stores
            )
            if not known:
                removal.left.append(entry.name + ("/" if entry.is_dir(follow_symlinks=False) else ""))
        self._forget_all()
        return removal

    def _remove_store_folder(self, folder: str, removal: Removal) -> None:
        top = self.root / folder
        if not top.is_dir() or top.is_symlink():
            return
        _open_up(top.parent)
        _open_up(top)
        for directory, dirs, _names in os.walk(top, topdown=True):
            for name in dirs:
                if not (Path(directory) / name).is_symlink():  # chmod would follow it out of the folder
                    _open_up(Path(directory) / name)
        removed_before = removal.files
        for directory, dirs, names in os.walk(top, topdown=False):
            here = Path(directory)
            for name in names + [d for d in dirs if (here / d).is_symlink()]:
                path = here / name
                rel = path.relative_to(self.root).as_posix()
                if name.startswith(".") or path.is_symlink() or not path.is_file():
                    removal.left.append(rel)  # never synced: not the console's copy to remove
                elif rel in self.files and not self._holds(rel, self.files[rel].sha):
                    # Written after the scan above: the console does not have this text.
                    removal.left.append(f"{rel} (changed since the last pass, so not removed)")
                elif rel in self.files or name.endswith((REFUSED_SUFFIX, CONFLICT_SUFFIX)):
                    path.unlink()
                    removal.files += 1
                else:
                    removal.left.append(f"{rel} (new since the last pass, so not removed)")
            with contextlib.suppress(OSError):  # not empty: something was left in it
                here.rmdir()
        # Store folders nest under a shared parent (shared/<name>): remove it too once it is empty.
        parent = top.parent
        while parent != self.root:
            with contextlib.suppress(OSError):
                parent.rmdir()
            parent = parent.parent
        if not top.exists():
            removal.removed.append(f"{folder}/")
        elif removal.files > removed_before:
            removal.removed.append(f"{folder}/ (its synced files; the files left are listed)")

    def _forget_all(self) -> None:
        """The state without the token or the file list: the run ended and its copy is gone."""
        self.files.clear()
        self.by_memory.clear()
        self.state["token"] = ""
        self.state["removed"] = True
        self.state["stores"] = []
        self.stores = []
        self.store_by_id = {}
        self._folders = []
        self.save(force=True)
