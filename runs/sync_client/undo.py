"""Undoing a refused change: the saved copy goes back (or a new file away), and the reason is
written beside it. When the console cannot be asked, the file stays as it is for the next pass.
"""

from __future__ import annotations

from .files import FilesMixin
from .http import ApiError
from .state import Entry, PassResult, _safe_memory_path


class UndoMixin(FilesMixin):
    """Putting saved copies back."""

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

    def _undo_or_keep(self, result, rel, att, entry, code, message, keep, copies=None) -> bool:
        """Put the saved copy back and say why (True), or keep the file for the next pass (False)."""
        if self._restore(result, rel, att, entry, copies):
            self._refuse(result, rel, code, message)
            return True
        keep(rel)
        return False

