"""A run's lifecycle in the folder: checkout, a pass, the end of the run and the lesson answer."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .cleanup import CleanupMixin, Removal
from .http import Api, ApiError
from .pull import PullMixin
from .push import PushMixin
from .state import (
    INSTRUCTIONS_FILE,
    STATE_DIR,
    PassResult,
    SyncFailed,
    TokenRefused,
    UsageError,
    _Abort,
    _remove_tree,
    _safe_memory_path,
    check_console_url,
)


class Folder(CleanupMixin, PushMixin, PullMixin):
    """A checked-out run folder: its state, and the passes that keep it in step with the console."""

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

    # A pass.

    def sync_pass(self, fetched: tuple[str, dict[str, Any]] | None = None) -> PassResult:
        """One pass: scan, undo what may not change, push, pull the change feed, save the state.

        ``fetched`` is a change-feed answer already in hand, with the cursor it was asked with
        (``watch``'s held request): the pull starts from it instead of asking again.
        """
        result = PassResult()
        self._known_dirs.clear()  # the agent may have removed folders since the last pass
        try:
            scan = self._scan()
            self._note_ignored(scan.ignored, result)
            dirty = self._push(scan, result)
            self._lay_out()  # a folder removed wholesale comes back, as at checkout (a few stats)
            self._pull(result, dirty, fetched)
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

    def _note_ignored(self, ignored: dict[str, str], result: PassResult) -> None:
        """Say each file left out of the sync once: the first pass that sees it, not every pass."""
        told = set(self.state.get("ignored", []))
        result.ignored = [{"path": rel, "why": why} for rel, why in sorted(ignored.items()) if rel not in told]
        if set(ignored) != told:
            self.state["ignored"] = sorted(ignored)
            self._dirty_state = True

    # Ending the run.

    def require_copy(self) -> None:
        """Raise SyncFailed when the run ended and its copy of the stores was removed: nothing to sync."""
        if self.state.get("removed"):
            raise SyncFailed(
                f"run {self.run_id} has ended and its copy of the stores was removed from {self.root}: "
                "there is nothing left to sync"
            )

    def end(self, signals: dict[str, Any], *, keep: bool = False) -> dict[str, Any]:
        """A last pass, then end the run with its signals, then remove the run's copy of the stores.

        Returns ``{lesson_prompt, pass, removal}``. The run is not ended when the last pass could not
        save everything: ending would stop the token and strand the text. The copy stays when
        ``keep`` asks, when the run was asked for a lesson (it is written in the folder), and when a
        file differs from the console's copy; ``removal`` says which, or what went.
        An ended folder (its lesson prompt open when it ended) is finished again: see ``_end_again``.
        """
        if self.state.get("ended"):
            return self._end_again(keep)
        result = self.sync_pass()
        if not result.complete:
            raise SyncFailed(
                "the last pass could not save every change (" + "; ".join(f["error"] for f in result.failed[:3])
                + "), so the run was not ended and the folder was kept. Run `memory-sync end` again."
            )
        try:
            answer = self.api.post(f"/v1/runs/{self.run_id}/end", signals)
        except ApiError as exc:
            raise SyncFailed(f"could not end the run: {exc}") from None
        self.state["ended"] = True
        self.state["lesson_prompt"] = answer.get("lesson_prompt")
        self.save(force=True)
        if keep:
            removal = Removal(kept="--keep asked to keep it")
        elif self.state["lesson_prompt"]:
            removal = Removal(kept=PROMPT_OPEN)
        else:
            removal = self.remove_copy()
        return {"lesson_prompt": answer.get("lesson_prompt"), "pass": result, "removal": removal}

    def _end_again(self, keep: bool) -> dict[str, Any]:
        """`end` on a folder whose run has ended: sync what is left, and remove the copy once the prompt is answered.

        The run token works until the lesson prompt is answered (a lesson saved, or `answer`), so a
        pass that the console takes means the prompt is still open, and the folder stays for the
        lesson; a refused token means it was answered, and once every file matches the console's
        copy the copy goes.
        """
        prompt = self.state.get("lesson_prompt")
        try:
            result = self.sync_pass()
        except TokenRefused as exc:
            # The run is over for the console: what the folder still holds unsaved cannot be sent
            # any more, and remove_copy keeps it (and says so) rather than lose it.
            result = exc.result or PassResult()
        else:
            if not result.complete:
                raise SyncFailed("the last pass could not save every change, so the folder was kept. "
                                 "Run `memory-sync end` again.", result)
            if prompt:
                return {"lesson_prompt": prompt, "pass": result, "removal": Removal(kept=PROMPT_OPEN)}
        removal = Removal(kept="--keep asked to keep it") if keep else self.remove_copy()
        return {"lesson_prompt": prompt, "pass": result, "removal": removal}

    def no_prompt_issued(self) -> bool:
        """True once `end` ended the run here and the console issued no lesson prompt (the run wrote memory)."""
        return bool(self.state.get("ended")) and not self.state.get("lesson_prompt")

    def answer(self, why: str, *, keep: bool = False) -> dict[str, Any]:
        """Answer the lesson prompt: nothing to record, and why; then remove the run's copy (unless ``keep``)."""
        try:
            answer = self.api.post(f"/v1/runs/{self.run_id}/lesson", {"nothing_to_record": True, "why": why})
        except ApiError as exc:
            if exc.status == 401:
                raise SyncFailed(
                    "the console no longer accepts the run token: the prompt was answered or closed already, "
                    "or the run was never asked"
                ) from None
            raise SyncFailed(f"could not answer the lesson prompt: {exc}") from None
        ended = bool(self.state.get("ended"))
        if keep:
            removal = Removal(kept="--keep asked to keep it")
        elif not ended:
            removal = Removal(kept="the run has not been ended here: `memory-sync end` removes it")
        else:
            removal = self.remove_copy()
        return {"lesson_answer": answer.get("lesson_answer"), "removal": removal}


# Why `end` keeps the folder of a run asked for a lesson.
PROMPT_OPEN = (
    "the run was asked for a lesson: write it in the folder and run `memory-sync once`, or answer "
    "`memory-sync answer --nothing-to-record WHY`; `answer`, or `end` again once the lesson is saved, "
    "removes the folder"
)
