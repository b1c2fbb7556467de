"""What: no secrets (detect-secrets in process, plugins loaded once, plus our own plugins).

The messages name a secret by its type and line, never its value. They are scrubbed after they
are composed (``pipeline._run``), and the scrubber reads prose too: "a secret (GitHub Token" reads
to it as a password given in a sentence. So a type is never written straight after a word such as
"secret", "password" or "token"; it follows "of type", where the scrubber finds nothing to hide.
"""

from __future__ import annotations

import re
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


# Path separators a writer uses between words: "db-password=x", "the_looker_password", "password/x".
_PATH_SEPARATORS = re.compile(r"[/\-_=.]")
# A separator straight after a word of letters only, with what follows it.
_AFTER_A_WORD = re.compile(r"(?:(?<=/)|(?<=^)|(?<=[\s\-_=.]))([^\W\d_]+)[\-_=.]")


def path_readings(path: str) -> list[str]:
    """A path as the texts a reader takes from it, for the same judgement as a note's text.

    The path as written (a token in a file name), and its segments read as words: the ``.md``
    dropped, ``/`` a space, and ``- _ = .`` a space too. Those separators are read twice: every one a
    space ("warehouse password hunter2"), and only those after a word of letters ("db password
    Qz7-vL!m"), so a value that holds a ``-`` or ``.`` itself is still read whole.
    """
    stem = path[:-3] if path.endswith(".md") else path
    segments = stem.strip("/").replace("/", " ")
    every = _PATH_SEPARATORS.sub(" ", stem).strip()
    after_words = _AFTER_A_WORD.sub(r"\1 ", segments).strip()
    readings = [path]
    for reading in (every, after_words):
        if reading not in readings:
            readings.append(reading)
    return readings


def scan_path(path: str) -> list[SecretFinding]:
    """What the secret rules find in any reading of ``path`` (``path_readings``)."""
    for reading in path_readings(path):
        found = secrets.scan(reading)
        if found:
            return found
    return []


def path_without_secret(path: str) -> str:
    """``path`` with the segment that completes a secret, and those after it, put as the secret's type.

    For the records that keep a refused path (the field's scrubber reads text, not a path's words):
    the value follows the word that names it, so the segment where a reading first finds a secret
    holds it ("/sec/password/<value>.md" keeps "/sec/password/").
    """
    if not path.startswith("/") or not scan_path(path):
        return path
    segments = path[1:].split("/")
    for n in range(1, len(segments) + 1):
        found = scan_path("/" + "/".join(segments[:n]))
        if found:
            return "/" + "/".join([*segments[: n - 1], f"[REDACTED:{found[0].type}].md"])
    return path  # pragma: no cover - the whole path was found to hold one above


def check_secrets(req: ChangeRequest) -> Decision | None:
    """Refuse a text, or a path, that holds what looks like a key, token or password."""
    path = req.brought_path
    if not req.content and not path:
        return None
    findings = secrets.scan(req.content) if req.content else []
    if path and not findings:
        # A file name is text the store keeps, lists and shows: it may hold no secret either.
        in_path = scan_path(path)
        if in_path:
            return refuse(
                Reason.SECRET_DETECTED,
                f"Not saved: the path holds what looks like a secret, of type {_types(in_path)}. Memory keeps "
                "no keys, tokens or passwords, in a file name either: rename the file after the lesson it holds "
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
