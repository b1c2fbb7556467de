"""The pull: the run's change feed since the cursor, applied to files with nothing local to lose."""

from __future__ import annotations

from typing import Any

from .files import FilesMixin
from .http import ApiError
from .state import PassResult, SyncFailed, _safe_memory_path, sha256_bytes


class PullMixin(FilesMixin):
    """Bringing the console's changes into the folder."""

    def _pull(self, result: PassResult, unsaved: set[str],
              fetched: tuple[str, dict[str, Any]] | None = None) -> None:
        """Apply the change feed from the cursor on. ``fetched`` is a feed answer already in hand
        (a held request that came back) with the cursor it was asked with: used as the first page
        when that cursor is still the folder's, else dropped."""
        cursor = self.state["cursor"]
        first = fetched[1] if fetched is not None and fetched[0] == cursor else None
        while True:
            if first is not None:
                answer, first = first, None
            else:
                answer = self._call(result, "", lambda c=cursor: self.api.get(f"/v1/runs/{self.run_id}/changes",
                                                                              cursor=c))
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

