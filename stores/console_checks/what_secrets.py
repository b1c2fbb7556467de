"""What: no secrets (detect-secrets in process, plugins loaded once, plus our own plugins)."""

from __future__ import annotations

from .detectors import secrets
from .reasons import Reason
from .request import ChangeRequest, Decision, refuse


def check_secrets(req: ChangeRequest) -> Decision | None:
    if not req.content:
        return None
    findings = secrets.scan(req.content)
    if not findings:
        return None
    where = ", ".join(f"{f.type} on line {f.line}" for f in findings[:5])
    return refuse(
        Reason.SECRET_DETECTED,
        f"The text holds what looks like a secret ({where}). Memory must never hold keys, tokens or "
        "passwords: remove the value (say where it is kept instead, e.g. 'in the vault as X') and save again.",
        findings=[{"type": f.type, "line": f.line} for f in findings],
    )
