"""What: no text that reads as instructions to an agent."""

from __future__ import annotations

import re

from stores.paths import AGENTS_FOLDER, PROJECT_FOLDERS

from .detectors import instructions
from .detectors.instructions import InstructionFinding
from .reasons import Reason
from .request import ChangeRequest, Decision, refuse

_PATH_SEPARATORS = re.compile(r"[/_\-.]+")


def _path_words(path: str, writer_name: str = "") -> str:
    """The words the writer chose for a path ("/issues/ignore-your-rules.md" reads "ignore your rules").

    A fixed folder and the writer's own notes folder (/agents/<its name>/) are the store's layout,
    not the writer's words, so they are left out: an agent named "agent-1" writing its own notes
    gives no orders by the name it was given.
    """
    segments = path.removesuffix(".md").strip("/").split("/")
    if len(segments) > 2 and segments[0] == AGENTS_FOLDER and writer_name and segments[1] == writer_name:
        segments = segments[2:]
    elif len(segments) > 1 and segments[0] in PROJECT_FOLDERS:
        segments = segments[1:]
    return _PATH_SEPARATORS.sub(" ", "/".join(segments)).strip()


def _why(finding: InstructionFinding) -> str:
    """What the passage does, and for the classifier the words that weighed most."""
    return f"{finding.kind}; words: {finding.why}" if finding.why else finding.kind


# Hidden, encoded and invisible text is named by its line only: quoting it would repeat the payload.
_NOT_QUOTED = (instructions.ENCODED, instructions.HIDDEN_COMMENT, instructions.HIDDEN_TEXT, instructions.INVISIBLE)


def _quoted(finding: InstructionFinding) -> str:
    """The passage itself, in typographic quotes, so the writer sees which sentence to rewrite."""
    if finding.kind in _NOT_QUOTED or not finding.excerpt:
        return ""
    return f" (\u201c{finding.excerpt}\u201d)"


def check_instructions(req: ChangeRequest) -> Decision | None:
    """Refuse a note, or a path, that gives orders to the agent that will read it; name the passage and why."""
    path = req.brought_path
    if not req.content and not path:
        return None
    findings = instructions.scan(req.content or "")
    if not findings and path:
        # Agents see every path in their run's index: a file name may give no orders either.
        in_path = instructions.scan(path) or instructions.scan(_path_words(path, req.writer.name))
        if in_path:
            return refuse(
                Reason.INSTRUCTIONS_DETECTED,
                f"The path reads as instructions to an agent ({_why(in_path[0])}). Name the file after the "
                "lesson it holds, plainly, and save again.",
                findings=[{"kind": f.kind, "line": 0} for f in in_path],
            )
    if not findings:
        return None
    first = findings[0]
    more = f" ({len({f.line for f in findings}) - 1} more line(s) too)" if len({f.line for f in findings}) > 1 else ""
    return refuse(
        Reason.INSTRUCTIONS_DETECTED,
        f"Line {first.line}{_quoted(first)} reads as instructions to an agent ({_why(first)}){more}. "
        "Memory records lessons (the fact, the evidence, the ticket key); it never gives orders to whoever "
        "reads it, never changes what an agent may do or who checks it, and it is never a standing decision. "
        "Rewrite it as a plain lesson about the work.",
        findings=[{"kind": f.kind, "line": f.line} for f in findings],
    )
