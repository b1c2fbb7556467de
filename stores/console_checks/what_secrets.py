"""What: no secrets (detect-secrets in process, plugins loaded once, plus our own plugins).

The messages name a secret by its type and line, never its value. They are scrubbed after they
are composed (``pipeline._run``), and the scrubber reads prose too: "a secret (GitHub Token" reads
to it as a password given in a sentence. So a type is never written straight after a word such as
"secret", "password" or "token"; it follows "of type", where the scrubber finds nothing to hide.
"""

from __future__ import annotations

from collections.abc import Sequence

from .detectors import secrets
from .detectors.secrets import SecretFinding
from .reasons import Reason
from .request import ChangeRequest, Decision, refuse


def _types(findings: Sequence[SecretFinding]) -> str:
    """The types found, once each (two plugins often name one value: "GitHub Token", "Github Pat")."""
    seen: dict[str, str] = {}
    for f in findings:
        seen.setdefault(f.type.casefold(), f.type)
    names = list(seen.values())
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _by_line(findings: Sequence[SecretFinding]) -> str:
    """Each line with a secret and the types found on it: "line 3 (of type AWS Access Key)"."""
    lines: dict[int, list[SecretFinding]] = {}
    for f in findings:
        lines.setdefault(f.line, []).append(f)
    shown = [f"line {n} (of type {_types(on_line)})" for n, on_line in list(lines.items())[:5]]
    more = f" and {len(lines) - 5} more line(s)" if len(lines) > 5 else ""
    return ", ".join(shown) + more


def check_secrets(req: ChangeRequest) -> Decision | None:
    """Refuse a text, or a path, that holds what looks like a key, token or password."""
    path = req.brought_path
    if not req.content and not path:
        return None
    findings = secrets.scan(req.content) if req.content else []
    if path and not findings:
        # A file name is text the store keeps, lists and shows: it may hold no secret either.
        in_path = secrets.scan(path)
        if in_path:
            return refuse(
                Reason.SECRET_DETECTED,
                f"Not saved: the path holds what looks like a secret, of type {_types(in_path)}. Memory keeps "
                "no keys, tokens or passwords, in a file name either: name the file after the lesson it holds "
                "and save again (a note may say where the value is kept, e.g. 'in the vault as X').",
                findings=[{"type": f.type, "line": 0} for f in in_path],
            )
    if not findings:
        return None
    return refuse(
        Reason.SECRET_DETECTED,
        f"Not saved: the text holds what looks like a secret on {_by_line(findings)}. Memory keeps no keys, "
        "tokens or passwords: remove the value (say where it is kept instead, e.g. 'in the vault as X') "
        "and save again.",
        findings=[{"type": f.type, "line": f.line} for f in findings],
    )
