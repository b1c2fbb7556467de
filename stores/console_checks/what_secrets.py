"""What: no secrets (detect-secrets in process, plugins loaded once, plus our own plugins)."""

from __future__ import annotations

from .detectors import secrets
from .reasons import Reason
from .request import ChangeRequest, Decision, refuse


def check_secrets(req: ChangeRequest) -> Decision | None:
    path = req.brought_path
    if not req.content and not path:
        return None
    findings = secrets.scan(req.content) if req.content else []
    if path and not findings:
        # A file name is text the store keeps, lists and shows: it may hold no secret either.
        in_path = secrets.scan(path)
        if in_path:
            kinds = ", ".join(sorted({f.type for f in in_path}))
            return refuse(
                Reason.SECRET_DETECTED,
                f"The path holds what looks like a secret ({kinds}). Memory must never hold keys, tokens or "
                "passwords, in a file name either: name the file after the lesson and save again.",
                findings=[{"type": f.type, "line": 0} for f in in_path],
            )
    if not findings:
        return None
    where = ", ".join(f"{f.type} on line {f.line}" for f in findings[:5])
    return refuse(
        Reason.SECRET_DETECTED,
        f"The text holds what looks like a secret ({where}). Memory must never hold keys, tokens or "
        "passwords: remove the value (say where it is kept instead, e.g. 'in the vault as X') and save again.",
        findings=[{"type": f.type, "line": f.line} for f in findings],
    )
