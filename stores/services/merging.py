"""Folding set-aside text into the saved copy: a line merge, and the service that saves it.

``three_way_merge`` is pure: the version a set-aside text was based on is the common ancestor,
the saved copy and the set-aside text are the two sides (merge3 does the merge). A set-aside with
no known ancestor (a lost create, or a base nobody can read any more) merges two-way: the lines
both sides share stand in for the ancestor, so what only one side adds is kept and what both
sides wrote differently is a conflict.

The console's Merge page and the later automated review call the same functions.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

import merge3

from stores.console_checks.reasons import Reason
from stores.console_checks.request import Writer
from stores.errors import Conflict, InvalidRequest
from stores.models import Memory, SetAside, Store

from .refusals import recording_refusals
from .set_asides import _open_set_aside, require_open, set_aside_fold_in

SAVED_LABEL = "saved copy"
INCOMING_LABEL = "set-aside text"
MARK_START = "<<<<<<< "
MARK_MIDDLE = "======="
MARK_END = ">>>>>>> "


@dataclass(frozen=True)
class MergeRegion:
    """One stretch of the merge: agreed text, or a conflict with both sides' lines."""

    text: str = ""
    saved: str = ""
    incoming: str = ""
    conflict: bool = False


@dataclass(frozen=True)
class MergeResult:
    """The merged text (conflicts marked between <<<<<<< and >>>>>>> lines) and its regions."""

    text: str
    conflicts: bool
    conflict_count: int = 0
    two_way: bool = False
    regions: list[MergeRegion] = field(default_factory=list)


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _ended(lines: list[str]) -> list[str]:
    """The lines with the last one ending in a newline, so a conflict marker starts its own line."""
    if lines and not lines[-1].endswith(("\n", "\r")):
        return [*lines[:-1], lines[-1] + "\n"]
    return lines


def _shared_lines(a: list[str], b: list[str]) -> list[str]:
    """The lines two texts have in common, in order: the ancestor a two-way merge stands on."""
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return [line for block in matcher.get_matching_blocks() for line in a[block.a : block.a + block.size]]


def three_way_merge(base: str | None, saved: str, incoming: str) -> MergeResult:
    """Merge ``incoming`` onto ``saved`` with ``base`` as their common ancestor.

    An empty or missing ``base`` merges two-way. A clean merge's ``text`` is the proposal; with
    conflicts, ``text`` holds both sides between markers and ``regions`` lists them apart.
    """
    saved_lines, incoming_lines = _lines(saved), _lines(incoming)
    two_way = not base
    base_lines = _shared_lines(saved_lines, incoming_lines) if two_way else _lines(base or "")
    merger = merge3.Merge3(base_lines, saved_lines, incoming_lines)
    regions: list[MergeRegion] = []
    pending: list[str] = []
    for group in merger.merge_groups():
        kind = group[0]
        if kind == "conflict":
            if pending:
                regions.append(MergeRegion(text="".join(pending)))
                pending = []
            _base, ours, theirs = group[1], group[2], group[3]
            regions.append(MergeRegion(saved="".join(ours), incoming="".join(theirs), conflict=True))
        else:
            pending.extend(group[1])
    if pending:
        regions.append(MergeRegion(text="".join(pending)))
    parts: list[str] = []
    for region in regions:
        if not region.conflict:
            parts.append(region.text)
            continue
        if parts and not parts[-1].endswith(("\n", "\r")):
            parts[-1] += "\n"
        parts.append(f"{MARK_START}{SAVED_LABEL}\n")
        parts.extend(_ended(_lines(region.saved)))
        parts.append(f"{MARK_MIDDLE}\n")
        parts.extend(_ended(_lines(region.incoming)))
        parts.append(f"{MARK_END}{INCOMING_LABEL}\n")
    count = sum(1 for r in regions if r.conflict)
    return MergeResult(text="".join(parts), conflicts=count > 0, conflict_count=count, two_way=two_way, regions=regions)


def has_conflict_markers(text: str) -> bool:
    """True while a merged text still holds the lines that mark a conflict."""
    for line in text.splitlines():
        if line.startswith((MARK_START, MARK_END)) or line == MARK_MIDDLE:
            return True
    return False


@dataclass(frozen=True)
class MergeProposal:
    """A set-aside text merged onto the saved copy, as the Merge page shows it."""

    set_aside: SetAside
    memory: Memory
    base_text: str
    base_version_id: str
    saved_sha256: str
    result: MergeResult


def _ancestor(memory: Memory, set_aside: SetAside) -> tuple[str, str]:
    """The text and id of the version the set-aside text was based on; ("", "") when none is known."""
    if not set_aside.base_version_id:
        return "", ""
    version = memory.history.filter(version_id=set_aside.base_version_id).first()
    if version is None or version.version_redacted_at is not None:
        return "", ""
    return version.content, version.version_id


def _mergeable(set_aside: SetAside) -> Memory:
    memory = Memory.objects.get(pk=set_aside.memory_id)
    if memory.redacted_at is not None:
        raise InvalidRequest("The memory was redacted: there is nothing to merge onto.", code=Reason.MEMORY_REDACTED)
    if memory.deleted_at is not None:
        raise InvalidRequest(
            f"{memory.path} was deleted; restore it from Recently deleted first, then merge this text.",
            code=Reason.MEMORY_DELETED,
        )
    return memory


def set_aside_merge_proposal(*, store: Store, set_aside_id: str) -> MergeProposal:
    """Merge an open set-aside text onto its memory's saved copy, saving nothing."""
    set_aside = require_open(
        SetAside.objects.filter(store=store, public_id=set_aside_id).first(),
        store=store,
        set_aside_id=set_aside_id,
    )
    memory = _mergeable(set_aside)
    base_text, base_version_id = _ancestor(memory, set_aside)
    return MergeProposal(
        set_aside=set_aside,
        memory=memory,
        base_text=base_text,
        base_version_id=base_version_id,
        saved_sha256=memory.content_sha256,
        result=three_way_merge(base_text, memory.content, set_aside.text),
    )


def set_aside_merge_save(
    *, writer: Writer, store: Store, set_aside_id: str, text: str, saved_sha256: str, reason: str = ""
) -> SetAside:
    """Save a merged text as the memory's new version, through the checks, and mark the set-aside used.

    ``saved_sha256`` is the saved copy the merge was made on: if the memory was saved again since,
    nothing changes and Conflict (``saved_copy_changed``) says to merge again. A text still holding
    conflict markers is refused. A refusal by the checks is recorded and raised; the set-aside
    stays open.
    """
    if has_conflict_markers(text):
        raise InvalidRequest(
            "The text still holds conflict markers (<<<<<<<, =======, >>>>>>>): keep the lines you want "
            "from each side, remove the markers, then save.",
            code=Reason.MERGE_UNRESOLVED,
        )

    def work() -> SetAside:
        set_aside = _open_set_aside(store, set_aside_id)  # locks the store row: no save can slip in
        memory = _mergeable(set_aside)
        if memory.content_sha256 != saved_sha256:
            raise Conflict(
                f"{memory.path} was saved again after the merge was made; merge again onto the new saved copy.",
                code=Reason.SAVED_COPY_CHANGED,
            )
        why = f"merged set-aside text {set_aside.public_id}" + (f": {reason}" if reason else "")
        return set_aside_fold_in(writer=writer, store=store, set_aside=set_aside, content=text, reason=why)

    return recording_refusals(work)
