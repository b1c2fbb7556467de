"""The push: local changes sent to the console, each update with the saved copy's sha as its
precondition; renames, deletions (never several at once), read-only stores and lost races.
"""

from __future__ import annotations

import os
import time
from typing import Any

from .http import ApiError
from .state import BULK_RESTORE, EMPTY_SHA, Entry, PassResult, _Scan, sha256_bytes
from .undo import UndoMixin


class PushMixin(UndoMixin):
    """Sending the folder's changes."""

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
            kept = self._keep_losing_text(rel, text)
            message = answer.message or "The saved copy changed first and wins; your text was kept aside."
            if self._undo_or_keep(result, rel, att, entry, self._code(answer),
                                  f"{message}\n{_beside(kept, _set_aside_id(answer))}", keep):
                result.pulled += 1  # the console's copy now holds the file: a pull, said in the summary
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
        """Another writer created the same path first: its saved copy wins, this text is kept aside,
        by the console and beside the file as ``<file>.conflict``.

        A console that keeps a losing create's text aside itself says so with
        ``error.details.set_aside_id``. One that does not is sent the text as a change based on an
        empty file (what this writer started from), so it keeps it aside exactly as it keeps the
        losing side of any concurrent edit. The winner's copy then takes the file's place; when it
        cannot be fetched yet, the file stays and the next pass (asking again) brings it.
        """
        memory_id = conflict.error.get("conflicting_memory_id")
        aside = _set_aside_id(conflict)
        differs = sha256_bytes(text.encode("utf-8")) != EMPTY_SHA
        if not memory_id:
            kept = self._keep_losing_text(rel, text) if differs else None
            self._undo(result, rel, att, None, "path_conflict",
                       conflict.message + (f"\n{_beside(kept, aside)}" if kept else ""))
            return
        if differs and aside is None:
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
            aside = _set_aside_id(answer)
        saved = self._saved_copy(result, rel, att, memory_id)
        if isinstance(saved, ApiError):
            keep(rel)
            return
        if saved is None:
            keep(rel)  # deleted meanwhile: the next pass creates it again
            return
        lost = saved["content_sha256"] != sha256_bytes(text.encode("utf-8"))
        kept = self._keep_losing_text(rel, text) if lost and differs else None  # before the file is replaced
        self._remove(rel)
        self._put(att, att["folder"] + saved["path"], saved["content"] or "", saved["id"], saved["content_sha256"])
        if lost:
            result.pulled += 1  # the winner's copy replaced the local text
            self._refuse(result, rel, "stale_base",
                         f"Another writer saved {saved['path']} first; its copy wins and is now in the folder. "
                         "Your text was kept aside for a person to fold in."
                         + (f"\n{_beside(kept, aside)}" if kept else ""))

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



def _set_aside_id(exc: ApiError) -> str | None:
    """The id of the set-aside text a 409 names (``error.details.set_aside_id``), when it names one."""
    details = exc.error.get("details")
    value = details.get("set_aside_id") if isinstance(details, dict) else None
    return value if isinstance(value, str) and value else None


def _beside(kept: str | None, aside: str | None) -> str:
    """The line of a ``.refused`` file that says where the losing text is."""
    where = f"The console keeps it as set-aside {aside}. " if aside else ""
    return f"{where}Your text is beside this file as {kept}." if kept else where.strip()
