"""The scan: sizes and times first, contents only for files that moved (or moved too recently
to trust their time), so a pass over an unchanged folder reads no file.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterator

from .files import FilesMixin
from .state import CONFLICT_SUFFIX, RACY_NS, REFUSED_SUFFIX, _Scan, sha256_bytes


class ScanMixin(FilesMixin):
    """What changed in the folder since the last pass: changed, new and missing files."""

    def _walk(self, directory: str, rel_dir: str,
              ignored: dict[str, str] | None = None) -> Iterator[tuple[str, os.stat_result]]:
        """Every regular file below ``directory`` as (path relative to the folder, stat), one stat each.

        What is left out (hidden files and folders, links, devices) goes into ``ignored``, with why.
        """
        try:
            entries = list(os.scandir(directory))
        except (FileNotFoundError, NotADirectoryError):
            return
        for entry in entries:
            name = entry.name
            if name.startswith("."):
                # Hidden files are never memories (and never uploaded).
                if ignored is not None:
                    ignored[f"{rel_dir}/{name}"] = "hidden (its name starts with a dot)"
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except FileNotFoundError:
                continue
            if stat.S_ISDIR(st.st_mode):
                yield from self._walk(entry.path, f"{rel_dir}/{name}", ignored)
            elif stat.S_ISREG(st.st_mode):
                if not name.endswith((REFUSED_SUFFIX, CONFLICT_SUFFIX)):
                    yield f"{rel_dir}/{name}", st
            elif ignored is not None:
                why = "a symbolic link" if stat.S_ISLNK(st.st_mode) else "not a regular file"
                ignored[f"{rel_dir}/{name}"] = why + " (only regular files are memories)"

    def _scan(self) -> _Scan:
        scan = _Scan()
        now = time.time_ns()
        seen: set[str] = set()
        # Store folders never nest (project, agent, practice, shared/<name>, toolsets/<name>), but a
        # deeper one would win: a file is counted once, under the store _att_for names.
        nested = any(a is not b and b["folder"].startswith(a["folder"] + "/") for a in self.stores for b in self.stores)
        for att in self.stores:
            for rel, st in self._walk(str(self.root / att["folder"]), att["folder"], scan.ignored):
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


    def changed_since_pass(self) -> bool:
        """True when a file was written, added or removed since the last pass saw the folder: sizes
        and times against what the pass recorded, reading only files written in the racy window
        (as the scan would). `watch` looks with this while the console holds its request."""
        now = time.time_ns()
        seen = 0
        for att in self.stores:
            for rel, st in self._walk(str(self.root / att["folder"]), att["folder"]):
                entry = self.files.get(rel)
                if entry is None or entry.size != st.st_size or entry.mtime_ns != st.st_mtime_ns:
                    return True
                if entry.mtime_ns >= min(entry.checked_ns, now) - RACY_NS:
                    try:
                        if sha256_bytes((self.root / rel).read_bytes()) != entry.sha:
                            return True
                    except OSError:
                        return True
                seen += 1
        return seen != len(self.files)
