"""What: no text that reads as instructions to an agent."""

from __future__ import annotations

import re

from stores.paths import AGENTS_FOLDER, PROJECT_FOLDERS

from .detectors import instructions
from .detectors.instructions import InstructionFinding
from .hidden_characters import HIDDEN_LISTED, HiddenCharacter, hidden_characters, hidden_sentence, them
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


def _path_refusal(findings: list[InstructionFinding]) -> Decision:
    kind = findings[0].kind
    return refuse(
        Reason.INSTRUCTIONS_DETECTED,
        f"The path reads as instructions to an agent ({_why(findings[0])}). Name the file after the "
        "lesson it holds, plainly, and save again.",
        record_message=f"The path reads as instructions to an agent ({kind}).",
        findings=[{"kind": f.kind, "line": 0} for f in findings],
    )


def _orders_refusal(findings: list[InstructionFinding], hidden: list[HiddenCharacter]) -> Decision:
    """The refusal of a passage that gives orders: the writer is shown the passage, the record its line."""
    first = findings[0]
    lines = {f.line for f in findings}
    more = f" ({len(lines) - 1} more line(s) too)" if len(lines) > 1 else ""
    invisible = f" {hidden_sentence(hidden)}; remove {them(hidden)} too." if hidden else ""
    return refuse(
        Reason.INSTRUCTIONS_DETECTED,
        f"Line {first.line}{_quoted(first)} reads as instructions to an agent ({_why(first)}){more}. "
        "Memory records lessons (the fact, the evidence, the ticket key); it never gives orders to whoever "
        "reads it, never changes what an agent may do or who checks it, and it is never a standing decision. "
        f"Rewrite it as a plain lesson about the work.{invisible}",
        record_message=f"Line {first.line} reads as instructions to an agent ({first.kind}){more}.{invisible}",
        findings=[{"kind": f.kind, "line": f.line} for f in findings],
        **({"characters": [c.as_detail() for c in hidden[:HIDDEN_LISTED]]} if hidden else {}),
    )


def _hidden_refusal(findings: list[InstructionFinding], hidden: list[HiddenCharacter]) -> Decision:
    """The refusal of a text whose only finding is an invisible character: which one, where, and to remove it.

    The message quotes nothing of the text (a character's code and name are no passage), so the
    record keeps it as it is.
    """
    return refuse(
        Reason.INSTRUCTIONS_DETECTED,
        f"{hidden_sentence(hidden)}. Invisible characters can hide text from the people who read memory, so "
        f"memory takes none: remove {them(hidden)} (such characters often come along with text copied from a web page "
        "or a chat) and save again.",
        findings=[{"kind": f.kind, "line": f.line} for f in findings],
        characters=[c.as_detail() for c in hidden[:HIDDEN_LISTED]],
    )


def check_instructions(req: ChangeRequest) -> Decision | None:
    """Refuse a note, or a path, that gives orders to the agent that will read it; name the passage and why.

    An invisible character is refused as a way of hiding text; when it is all the check found, the
    refusal names the character, its line and column, and says to remove it.
    """
    path = req.brought_path
    if not req.content and not path:
        return None
    findings = instructions.scan(req.content or "")
    if not findings and path:
        # Agents see every path in their run's index: a file name may give no orders either.
        in_path = instructions.scan(path) or instructions.scan(_path_words(path, req.writer.name))
        if in_path:
            return _path_refusal(in_path)
    if not findings:
        return None
    hidden = hidden_characters(req.content or "") if any(f.kind == instructions.INVISIBLE for f in findings) else []
    orders = [f for f in findings if f.kind != instructions.INVISIBLE]
    if orders or not hidden:
        return _orders_refusal(orders or findings, hidden)
    return _hidden_refusal(findings, hidden)
