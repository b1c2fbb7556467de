"""What: no text that reads as instructions to an agent."""

from __future__ import annotations

from .detectors import instructions
from .reasons import Reason
from .request import ChangeRequest, Decision, refuse


def check_instructions(req: ChangeRequest) -> Decision | None:
    if not req.content and not req.path:
        return None
    findings = instructions.scan(req.content or "")
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
