"""What: no text that reads as instructions to an agent."""

from __future__ import annotations

import re

from .detectors import instructions
from .reasons import Reason
from .request import ChangeRequest, Decision, refuse

_PATH_SEPARATORS = re.compile(r"[/_\-.]+")


def _path_words(path: str) -> str:
    """A path read as words ("/issues/ignore-your-rules.md" reads "issues ignore your rules")."""
    return _PATH_SEPARATORS.sub(" ", path.removesuffix(".md")).strip()


def check_instructions(req: ChangeRequest) -> Decision | None:
    path = req.brought_path
    if not req.content and not path:
        return None
    findings = instructions.scan(req.content or "")
    if not findings and path:
        # Agents see every path in their run's index: a file name may give no orders either.
        in_path = instructions.scan(path) or instructions.scan(_path_words(path))
        if in_path:
            return refuse(
                Reason.INSTRUCTIONS_DETECTED,
                f"The path reads as instructions to an agent ({in_path[0].kind}). Name the file after the "
                "lesson it holds, plainly, and save again.",
                findings=[{"kind": f.kind, "line": 0} for f in in_path],
            )
    if not findings:
        return None
    first = findings[0]
    return refuse(
        Reason.INSTRUCTIONS_DETECTED,
        f"Line {first.line} reads as instructions to an agent ({first.kind}). Memory records lessons "
        "(the fact, the evidence, the ticket key); it never gives orders to whoever reads it, and it is "
        "never a standing decision. Rewrite it as a plain lesson.",
        findings=[{"kind": f.kind, "line": f.line} for f in findings],
    )
