"""Secrets in a memory note: detect-secrets in process, plus our own data-stack plugins.

detect-secrets keeps its configuration in a process-global singleton. We configure it once, at
first use, take a snapshot of the plugins and filters it builds, and from then on call them
directly: no temporary files, no per-call settings, no re-import of plugins.

Speed comes from not running 26 plugins on lines that cannot hold a secret. Every detect-secrets
plugin needs something a plain prose line lacks (a quoted run, a long token, a keyword, a fixed
prefix such as ``eyJ`` or ``://``). A few precompiled regexes (``_CANDIDATE_*``), each linear,
give a superset of the lines that meet those needs; any other line is skipped. On a candidate line, each plugin runs only if its
own trigger (its own denylist regexes, or the superset condition for the keyword and entropy
plugins) matches. The result is, by construction and by test, exactly what detect-secrets' own
line scan finds with the same settings (``detect_secrets_full_scan``).
"""

from __future__ import annotations

import base64
import binascii
import bisect
import html
import math
import re
import threading
import unicodedata
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from . import secret_formats, secret_prose
from .secret_values import (
    amazon_resource_name,
    default_login,
    encoded_data,
    hash_labelled,
    hash_prefixed,
    hash_shaped,
    is_placeholder,
    password_shaped,
    public_identifier,
    public_key_material,
    reference_end,
    resource_name,
    stand_in_encoding,
    token_shaped,
)

__all__ = [
    "SecretFinding",
    "detect_secrets_full_scan",
    "detect_secrets_scan",
    "own_scan",
    "redact",
    "scan",
]


@dataclass(frozen=True)
class SecretFinding:
    """One secret: its type and its 1-based line number."""

    type: str
    line: int


# A memory is Markdown: detect-secrets treats ".md" as "other", so its keyword plugin needs quotes
# (the quotes-required rules), exactly as `detect-secrets scan note.md` would.
FILENAME = "memory.md"
# Public IPv4 addresses are not secrets, and lessons about network policies and allow-lists cite them.
DISABLED_PLUGINS = frozenset({"IPPublicDetector"})
# A note must not be able to opt itself out with a "pragma: allowlist secret" comment.
DISABLED_FILTERS = ("detect_secrets.filters.allowlist.is_line_allowlisted",)


# --------------------------------------------------------------------------------------------
# detect-secrets, configured once
# --------------------------------------------------------------------------------------------

_BASE64_RUN = r"[A-Za-z0-9+/=_\\-]"
# A quoted run long enough to pass either entropy limit: hex needs more than 3.0 bits, so at least
# 9 distinct characters; 8 leaves a margin.
_QUOTED_RUN = r"""["']""" + _BASE64_RUN + r"""{8,}["']"""
_QUOTE = r"""["'`]"""

# Stage 1: a superset of what any enabled detect-secrets plugin needs on a line, in two cheap
# regexes (every alternative starts with a literal or a rare character, so the regex engine skips
# ahead fast). Each alternative is a necessary part of one plugin's own regex:
_CANDIDATE_CASED = re.compile(
    r"AKC[a-zA-Z0-9]{10}|AP[\dA-F][a-zA-Z0-9]{8}"  # Artifactory
    r"|(?:A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA)[0-9A-Z]{16}"  # AWS key id (the secret key: quoted run)
    r"|AccountKey="  # Azure storage
    r"|://"  # basic auth, Cloudant URL, Slack webhook
    r"|_authToken"  # npm
    r"|gh[pousr]_"  # GitHub
    r"|gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas)-|GR1348941"  # GitLab
    r"|eyJ"  # JWT
    r"|-us\d"  # Mailchimp
    r"|T3BlbkFJ"  # OpenAI
    r"|PRIVATE KEY|PuTTY-User-" r"Key-File-2"  # private keys (split so this file does not match itself)
    r"|pypi-AgE"  # PyPI
    r"|SG\."  # SendGrid
    r"|sq0csp-"  # Square
    r"|k_live_"  # Stripe
    r"|AC[a-z0-9]{32}|SK[a-z0-9]{32}"  # Twilio
    r"|\d{8,10}:[\w-]{35}"  # Telegram
    r"|[MNO][\w-]{23,25}\."  # Discord
    rf"|{_QUOTED_RUN}"  # high-entropy strings; AWS secret key
)
# On the lower-cased text, line sets that are intersected (each regex is linear, so a long line
# cannot make the prefilter quadratic): the keyword plugin needs a keyword and a quote on the line;
# the keyword-assignment plugins (Cloudant, IBM, SoftLayer) a keyword and a long value; Slack "xox".
_CANDIDATE_KEYWORD = re.compile(r"key|pw|pass|token|secret|contrase")
_CANDIDATE_QUOTE_OR_RUN = re.compile(r"[\"'`]|[\w-]{24}")
_CANDIDATE_SLACK = re.compile(r"xox")
_KEYWORD = r"(?i:key|pass|pwd|secret|contrase)"


def _folded(text: str) -> str:
    """``text`` lower-cased as the regex engine's IGNORECASE sees it, keeping every offset."""
    lower = text.lower()
    if len(lower) != len(text):  # a character that lower-cases to two (e.g. U+0130): keep offsets
        lower = "".join("i" if c == "\u0130" else (c.lower() if len(c.lower()) == 1 else c) for c in text)
    if not lower.isascii():
        # IGNORECASE also equates the long s with s and the dotless i with i.
        lower = lower.replace("\u017f", "s").replace("\u0131", "i")
    return lower


_KEYWORD_RE = re.compile(_KEYWORD)
_QUOTE_RE = re.compile(_QUOTE)


# Plugins whose own regex backtracks on long lines without the literal all their matches hold
# ("//.+/:_authToken": every "//" of a 100 kB line scans to its end).
_REQUIRED_LITERAL = {"NpmDetector": "_authToken"}


def _keyword_and_quote(line: str) -> bool:
    """The keyword plugin's trigger: each of its quotes-required rules needs both (two linear searches)."""
    return bool(_KEYWORD_RE.search(line)) and bool(_QUOTE_RE.search(line))


def _scoped(pattern: re.Pattern[str]) -> str:
    """A compiled pattern as source that keeps its own flags inside a larger regex."""
    flags = ("i" if pattern.flags & re.IGNORECASE else "") + ("x" if pattern.flags & re.VERBOSE else "")
    return f"(?{flags}:{pattern.pattern})" if flags else f"(?:{pattern.pattern})"


@dataclass
class _Plugin:
    plugin: Any
    trigger: Callable[[str], object] | None  # None: no cheap trigger known, run on every candidate line


@dataclass
class _Filter:
    fn: Callable[..., Any]
    params: frozenset[str]


class _Engine:
    """The configured plugins and filters, snapshotted once per process."""

    def __init__(self) -> None:
        from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
        from detect_secrets.plugins.base import RegexBasedDetector
        from detect_secrets.plugins.high_entropy_strings import HighEntropyStringsPlugin
        from detect_secrets.plugins.keyword import KeywordDetector
        from detect_secrets.settings import get_filters, get_plugins, get_settings

        settings = get_settings()
        settings.clear()
        settings.configure_plugins(
            [
                {"name": cls.__name__}
                for cls in get_mapping_from_secret_type_to_class().values()
                if cls.__name__ not in DISABLED_PLUGINS
            ]
        )
        settings.disable_filters(*DISABLED_FILTERS)
        get_plugins.cache_clear()
        get_filters.cache_clear()

        self.plugins: list[_Plugin] = []
        for plugin in get_plugins():
            if isinstance(plugin, KeywordDetector):
                trigger: Callable[[str], object] | None = _keyword_and_quote
            elif isinstance(plugin, HighEntropyStringsPlugin):
                trigger = re.compile(_QUOTED_RUN).search
            elif isinstance(plugin, RegexBasedDetector):
                # The plugin's own regexes: it finds something only if one of them matches.
                trigger = re.compile("|".join(_scoped(p) for p in plugin.denylist)).search
                literal = _REQUIRED_LITERAL.get(type(plugin).__name__)
                if literal is not None:
                    # A literal every match holds, tested first: the regex is quadratic on long lines.
                    trigger = (lambda search, lit: lambda line: lit in line and search(line))(trigger, literal)
            else:  # pragma: no cover - a plugin we do not know: never skip it
                trigger = None
            self.plugins.append(_Plugin(plugin, trigger))

        filters = [_Filter(f, frozenset(f.injectable_variables)) for f in get_filters()]
        # The three stages detect-secrets filters in, by the parameter each filter needs.
        self.line_filters = [f for f in filters if "line" in f.params]
        self.secret_filters = [f for f in filters if "secret" in f.params]
        self.context_filters = [f for f in filters if "context" in f.params]
        self.all_lines_are_candidates = any(p.trigger is None for p in self.plugins)

    @staticmethod
    def _filtered(filters: list[_Filter], **kwargs: Any) -> bool:
        # Same semantics as detect-secrets: pass the arguments a filter takes; a filter that needs
        # one we do not have raises TypeError and is skipped.
        for f in filters:
            try:
                if f.fn(**{k: v for k, v in kwargs.items() if k in f.params}):
                    return True
            except TypeError:
                continue
        return False

    def scan_line(self, lines: list[str], number: int, only_triggered: bool) -> list[Any]:
        """Potential secrets on line ``number`` (1-based), as detect-secrets' file scan finds them.

        Plugins run before the line filters here (detect-secrets runs them after); filters are
        pure, so the result is the same, and most lines then never pay for the filters.
        """
        from detect_secrets.util.code_snippet import get_code_snippet

        line = lines[number - 1].rstrip()
        if "kty" in line and _public_jwks(line) and not _JWK_PRIVATE.search(line):
            return []  # a public JSON Web Key on its own line: published, not secret
        triggered = [
            entry
            for entry in self.plugins
            if not only_triggered or entry.trigger is None or entry.trigger(line)
        ]
        if not triggered:
            return []
        context = get_code_snippet(lines=lines, line_number=number)
        found = []
        for entry in triggered:
            for secret in entry.plugin.analyze_line(
                filename=FILENAME, line=line, line_number=number, context=context
            ):
                value = secret.secret_value or ""
                if is_placeholder(value) or is_placeholder(_whole_token(line, value)):
                    continue  # a documented example key, "user:password@" in a URI template
                if public_key_material(value) or hash_prefixed(value):
                    continue  # a public key's body or an algorithm-named digest: published, not secret
                at = line.find(value) if value else -1
                if at >= 0 and hash_labelled(value, line[:at]):
                    continue  # a digest its label names as one (hashed_secret), kept instead of a secret
                if at >= 0 and _in_placeholder(line, at, at + len(value)):
                    continue  # <from the vault, entry X>: a placeholder that says where the value is
                if secret.type == "Private Key" and _elided_key_line(lines, number):
                    continue  # BEGIN, "...", END: the shape of a key in documentation, with no key in it
                if secret.type == "Basic Auth Credentials" and _default_url_login(line, value):
                    continue  # http://admin:admin@localhost: the software's default login
                if (
                    secret.type == "Hex High Entropy String"
                    and hash_shaped(value)
                    and not _SECRET_WORD.search(line.lower())
                ):
                    continue  # a quoted digest (an ETag, a checksum) on a line that names no credential
                common = {"filename": secret.filename, "secret": secret.secret_value, "plugin": entry.plugin}
                if self._filtered(self.secret_filters, line=line, **common):
                    continue
                if self._filtered(self.context_filters, line=line, context=context, **common):
                    continue
                found.append(secret)
        if found and self._filtered(self.line_filters, filename=FILENAME, line=line, context=context):
            return []
        return found


# A private key block whose body holds no key: only an ellipsis, filler or a placeholder between its
# BEGIN and END lines (written with real line breaks or JSON's "\n"), as documentation shows one.
_ELIDED_KEY_BLOCK = re.compile(
    r"-----BEGIN[A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?-----"
    r"(?:\s|\\[nr]|\.{3}|…|<[^<>\n]{0,60}>|\[[^\[\]\n]{0,60}\]|[xX*]{3,}|\.{3})*"
    r"-----END[A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?-----"
)
_BEGIN_PRIVATE = re.compile(r"-----BEGIN[A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?-----")
_ELIDED_LINES = 12  # an elided block is a few lines long: BEGIN, "...", END


def _elided_key_blocks(text: str) -> list[tuple[int, int]]:
    """Where ``text`` holds a private key block with no key in its body (see ``_ELIDED_KEY_BLOCK``)."""
    if "PRIVATE KEY" not in text or "-----END" not in text:
        return []
    return [(m.start(), m.end()) for m in _ELIDED_KEY_BLOCK.finditer(text)]


def _elided_key_line(lines: list[str], number: int) -> bool:
    """Whether every private key block that begins on line ``number`` is an elided one."""
    line = lines[number - 1]
    begins = [m.start() for m in _BEGIN_PRIVATE.finditer(line)]
    if not begins:
        return False
    text = "\n".join(lines[number - 1 : number - 1 + _ELIDED_LINES])
    elided = {start for start, _end in _elided_key_blocks(text)}
    return all(b in elided for b in begins)


# A placeholder in angle brackets that may hold words, quotes and a colon of its own:
# <from the vault: "entry name">, <ask the DBA>. What sits inside one is its description.
_ANGLE_PLACEHOLDER = re.compile(r"<[^<>\n]{1,100}>")


def _in_placeholder(line: str, start: int, end: int) -> bool:
    """Whether ``line[start:end]`` lies inside an angle-bracket placeholder on ``line``."""
    if "<" not in line:
        return False
    return any(m.start() < start and end < m.end() for m in _ANGLE_PLACEHOLDER.finditer(line))


def _in_resource_name(line: str, start: int) -> bool:
    """Whether ``start`` lies inside an Amazon Resource Name on ``line`` ("...:secret:prod/x" is a name)."""
    token = start
    while token > 0 and not line[token - 1].isspace() and line[token - 1] not in "\"'`(<[{,;":
        token -= 1
    return token < start and amazon_resource_name(line[token:start])


def _default_url_login(line: str, password: str) -> bool:
    """Whether a URL on ``line`` gives ``password`` to a user whose default login it is (admin:admin)."""
    m = re.search(rf"://(?P<user>[^\s:/@]*):{re.escape(password)}@", line)
    return m is not None and default_login(m.group("user"), password)


_TOKEN_RUN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _whole_token(line: str, value: str) -> str:
    """The whole run of token characters ``value`` sits in on ``line``: a plugin may report only a
    key's prefix ("glpat"), and a placeholder is judged on the whole value ("glpat-XXXXXXXX...")."""
    at = line.find(value) if value else -1
    if at < 0:
        return value
    start, end = at, at + len(value)
    while start > 0 and line[start - 1] in _TOKEN_RUN_CHARS:
        start -= 1
    while end < len(line) and line[end] in _TOKEN_RUN_CHARS:
        end += 1
    return line[start:end]


_engine_lock = threading.Lock()
_engine_instance: _Engine | None = None


def _engine() -> _Engine:
    global _engine_instance
    if _engine_instance is None:
        with _engine_lock:
            if _engine_instance is None:
                _engine_instance = _Engine()
    return _engine_instance


class _Note:
    """A text prepared once for every detector: newlines normalised, lines, offsets, folded case."""

    def __init__(self, text: str) -> None:
        # As a file read with universal newlines: \r\n and \r end lines too.
        self.text = text.replace("\r\n", "\n").replace("\r", "\n")
        self.lines = self.text.split("\n")
        self.starts = [0]
        pos = self.text.find("\n")
        while pos >= 0:
            self.starts.append(pos + 1)
            pos = self.text.find("\n", pos + 1)
        self.lower = _folded(self.text)

    def line_of(self, offset: int) -> int:
        """The 1-based line number holding ``offset``."""
        return bisect.bisect_right(self.starts, offset)

    def line_text(self, number: int) -> str:
        return self.lines[number - 1]

    def lines_matching(self, regex: re.Pattern[str], lower: bool = False) -> set[int]:
        """Line numbers where ``regex`` matches (no alternative of ours spans a newline)."""
        return {self.line_of(m.start()) for m in regex.finditer(self.lower if lower else self.text)}


def _detect_secrets_raw(note: _Note) -> list[tuple[int, Any]]:
    engine = _engine()
    if engine.all_lines_are_candidates:  # pragma: no cover - only with an unknown plugin
        candidates = set(range(1, len(note.lines) + 1))
    else:
        keyword_lines = note.lines_matching(_CANDIDATE_KEYWORD, lower=True)
        candidates = note.lines_matching(_CANDIDATE_CASED) | note.lines_matching(_CANDIDATE_SLACK, lower=True)
        if keyword_lines:
            # Only the keyword lines are searched (no match spans a line break, so a line holds one or not alike).
            candidates |= {n for n in keyword_lines if _CANDIDATE_QUOTE_OR_RUN.search(note.lines[n - 1])}
    out: list[tuple[int, Any]] = []
    for number in sorted(candidates):
        out.extend((number, s) for s in engine.scan_line(note.lines, number, only_triggered=True))
    return out


def detect_secrets_scan(text: str) -> list[SecretFinding]:
    """What detect-secrets finds in ``text``, skipping the lines that cannot hold a secret."""
    return sorted({SecretFinding(s.type, n) for n, s in _detect_secrets_raw(_Note(text))}, key=_order)


def detect_secrets_full_scan(text: str) -> list[SecretFinding]:
    """Every enabled detect-secrets plugin on every line of ``text``, with no prefilter: the reference
    the prefiltered scan must equal.

    Built from detect-secrets' public parts only (``get_plugins``, ``get_filters``, each plugin's
    ``analyze_line``), the same loop its file scan runs, so no private function of it is called.
    """
    engine = _engine()
    lines = _Note(text).lines
    found: set[SecretFinding] = set()
    for number in range(1, len(lines) + 1):
        found.update(SecretFinding(s.type, number) for s in engine.scan_line(lines, number, only_triggered=False))
    return sorted(found, key=_order)


def _order(f: SecretFinding) -> tuple[int, str]:
    return (f.line, f.type)


# --------------------------------------------------------------------------------------------
# Our own plugins: data-stack secrets detect-secrets lacks, and unquoted assignments
# --------------------------------------------------------------------------------------------

_ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_PATHLIKE = re.compile(r"^(?:~|\.{1,2})?/|\.(?:json|p8|pem|key|yml|yaml|txt|env|ini|cfg|md|sql|py)$", re.I)
_PROSE_VALUES = frozenset(
    "none null true false yes no required optional set unset empty see stored rotated kept "
    # How a login works or where its value lives, as config files and lessons name it.
    "sso okta saml oauth oauth2 keypair key-pair externalbrowser prompt interactive mfa vault managed masked "
    "hidden blank disabled enabled default unknown expired keychain 1password lastpass bitwarden secret secrets "
    "env environment hashed encrypted unchanged same different varies omitted removed deleted tbc n/a".split()
)


def _entropy(value: str) -> float:
    counts: dict[str, int] = {}
    for ch in value:
        counts[ch] = counts.get(ch, 0) + 1
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _not_a_value(value: str) -> bool:
    """Placeholders, references, env var names and paths: what lessons write instead of secrets.

    Only a value that is one of these *whole* counts: a password with "here" inside it, or one that
    starts with ``$``, ``@`` or ``(``, is still a password.
    """
    return (
        is_placeholder(value)
        or "[REDACTED:" in value  # what redact() left: a record scrubbed once is not refused again
        or bool(_ENV_NAME.fullmatch(value))
        or bool(_PATHLIKE.search(value))
        or len(set(value.lower())) <= 2
        or public_key_material(value)  # RSA_PUBLIC_KEY='MIIBIjAN...': a public key, shown on purpose
        or hash_prefixed(value)  # sha256:..., h1:...: a digest named by its algorithm
        or bool(_COLON_HEX.match(value))  # eb:83:4c:...: a key's fingerprint, or a MAC address
        or bool(_NAMESPACED.match(value))  # orders:2024:summary: a cache key or a path of words and numbers
        or stand_in_encoding(value)  # dXNlcjpwYXNzd29yZA== is base64 of "user:password"
        or resource_name(value)  # projects/x/locations/y/keyRings/z/cryptoKeys/k: where a key lives
        or amazon_resource_name(value)  # arn:aws:iam::123456789012:role/x: a resource's name
        or public_identifier(value)  # acct_1NqZ..., vpc-0a1b...: a provider's public object id
    )


_NAMESPACED = re.compile(r"^(?:[A-Za-z]+|\d+)(?:[:/](?:[A-Za-z]+|\d+))+$")
_COLON_HEX = re.compile(r"^(?:[0-9a-fA-F]{2}[:\-]){5,}[0-9a-fA-F]{2}$")


def _reference_at(text: str, start: int) -> bool:
    """A reference or placeholder written whole from ``start`` (``{{ env_var('X') }}``, ``$(op read ...)``).

    The value a rule cut at the first space or quote may be only the start of one.
    """
    end = reference_end(text, start)
    return end is not None and (end >= len(text) or not (text[end].isalnum() or text[end] in "_-"))


def _password_like(value: str, in_code: bool) -> bool:
    """A password value: prose words pass; digits, symbols or inner capitals make it a password."""
    if len(value) < 4 or _not_a_value(value):
        return False
    if in_code:  # in a fenced profile or config block, any literal value is a real password
        return value.lower() not in _PROSE_VALUES
    if len(value) < 6 or value[-1] in "?!" and value[:-1].isalpha() and value[:-1].islower():
        return False  # "the password was leaked?": a word of the sentence and its punctuation
    has_digit = any(c.isdigit() for c in value)
    has_symbol = any(not c.isalnum() for c in value)
    inner_upper = any(c.isupper() for c in value[1:]) and any(c.islower() for c in value)
    return has_digit or has_symbol or inner_upper


def _token_like(value: str) -> bool:
    """A key or token value: long and varied, not a word or an identifier."""
    if len(value) < 16 or _not_a_value(value):
        return False
    has_digit = any(c.isdigit() for c in value)
    mixed = any(c.isupper() for c in value) and any(c.islower() for c in value)
    return (has_digit or mixed) and _entropy(value) >= 3.0


def _has_digit_and_letter(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    type: str


Rule = Callable[[_Note, Callable[[int], bool]], Iterable[_Span]]


def _regex_rule(
    secret_type: str,
    gates: tuple[str, ...],
    pattern: str,
    group: int = 0,
    check: Callable[[str], bool] | None = None,
) -> Rule:
    """A rule run only when one of its ``gates`` (lower-case literals) is in the note."""
    compiled = re.compile(pattern)

    def rule(note: _Note, in_code: Callable[[int], bool]) -> Iterable[_Span]:
        if not any(gate in note.lower for gate in gates):
            return
        for m in compiled.finditer(note.text):
            value = m.group(group)
            if not value or is_placeholder(value) or _reference_at(note.text, m.start(group)):
                continue  # a provider's documented example key (AWS's ends in EXAMPLE) is not a key
            if check is None or check(value):
                yield _Span(m.start(group), m.end(group), secret_type)

    rule.__name__ = secret_type
    return rule


# key = value, key: value, "key": "value", KEY=value: the key ends in a secret word.
_ASSIGN_WORD = re.compile(r"pass|pw|secret|token|key|auth|credential")
# A personal access token's key ("ASANA_PAT=", "jira_pat:"), looked for only where "pat" is in the note.
_PAT_KEY = re.compile(r"pat[\"'`\]]{0,2}[ \t]*(?::=|=>|=|:)")
_ASSIGN = re.compile(
    r"""(?ix)
    (?<![A-Za-z0-9])
    (?P<key>[A-Za-z0-9_.\-]{0,40}?
        (?P<word>pass(?:word|wd|phrase)?|pwd?|secret(?:[_\-]?key)?|token|pat|api[_\-]?key|apikey|access[_\-]?key
         |auth[_\-]?key|private[_\-]?key|client[_\-]?key|credentials?|auth|key))
    (?![A-Za-z0-9])
    ["'`\]]{0,2}[ \t]*
    (?::=|=>|=|:)(?:\*\*|__)?[ \t]*   # "**Password:** value" in Markdown
    (?P<q>["'`])?
    # A quoted value reads to its closing quote: a password may hold ";", "," or another quote.
    (?P<value>(?(q)(?:(?:(?!(?P=q))\S){1,200}(?=(?P=q))|[^\s"'`,;]+)|[^\s"'`,;]+))
    """
)
# A line that is one assignment and nothing else (YAML, .env, ini, a shell export) is config, not prose:
# there a literal password value is a password even when it is a plain word, as in a fenced block.
_CONFIG_LINE = re.compile(
    r"""^[ \t]*(?:[-*+][ \t]+)?(?:export[ \t]+|set[ \t]+|\$env:)?(?:"[\w.\-]+"|'[\w.\-]+'|[\w.\-]+)[ \t]*"""
    r"""(?::=|=>|=|:)[ \t]*["'`]?[^\s"'`]+["'`]?[ \t]*[,;]?[ \t]*(?:\#.*)?$"""
)


_NAMES_ITSELF = re.compile(
    r"(?:[a-z_][\w]*[._])*(?:pass(?:word|wd|phrase)?|pwd|secret|token|api_?key|key|credentials?|auth)"
)


def _key_value_like(value: str) -> bool:
    """The value of a bare ``*_KEY`` setting: random-looking (digits too), not a name, a type or a path."""
    if "." in value or any(c in value for c in "([{<") or not any(c.isdigit() for c in value) or not _token_like(value):
        return False
    return "/" not in value or (
        _entropy(value) >= 4.3 and any(c.isdigit() for c in value) and value.lower() != value
    )


# "the password is Hunter2!", "the API key was ...": prose with a value after is/was.
# "... secret fDH5mMDdw..." also: the value may follow the word directly (then it must look random).
_PROSE_IS = re.compile(
    r"""(?i)\b(?P<word>password|passphrase|api[ _-]?key|access[ _-]?key|client[ _-]?secret|token|secret)"""
    r"""(?:\s+(?:for|of|on)\s+(?:the\s+|our\s+|this\s+)?[\w.\-]+(?:\s+(?:user|account|role|login|service|database|db))?"""
    r"""(?=\s+(?:is|was)\b))?"""  # "the password for the etl user is ..."
    r"""(?:\s+(?P<verb>is|was|=|of))?\s+["'`]?(?P<value>[^\s"'`,;]+)"""
)
# Name the service when the key, its line or the lines above it (an ini section, a profile) say
# which one it is.
_CONTEXT_TYPES = (
    (("looker",), "Looker Client Secret", "Looker API Credentials"),
    (("fivetran",), "Fivetran API Secret", "Fivetran API Key"),
    (("atlassian", "jira", "confluence"), "Atlassian API Token", "Atlassian API Token"),
    (("snowflake",), "Snowflake Password", "Snowflake Credentials"),
    (("outputs:", "profiles.yml", "dbt"), "dbt Profile Password", "dbt Credentials"),
)
_CONTEXT_LINES = 8


def _context_type(where: str, key: str, is_password: bool) -> str | None:
    """The service ``where`` (a lower-case key, line or block) names, as a secret type."""
    for markers, secret_type, other_type in _CONTEXT_TYPES:
        if any(marker in where for marker in markers):
            if secret_type.endswith("Password"):
                return secret_type if is_password else other_type
            if other_type != secret_type:
                return secret_type if "secret" in key.lower() else other_type
            return secret_type
    return None


def _assignments(note: _Note, in_code: Callable[[int], bool]) -> Iterable[_Span]:
    numbers = note.lines_matching(_ASSIGN_WORD, lower=True)
    if "pat" in note.lower:
        numbers |= note.lines_matching(_PAT_KEY, lower=True)
    for number in sorted(numbers):
        line = note.line_text(number)
        offset = note.starts[number - 1]
        context: tuple[str, str] | None = None  # the line and the lines above it, lower-cased, once
        context_kinds: dict[tuple[bool, bool], str | None] = {}  # a long line is searched once per kind
        config_line: bool | None = None
        # Every assignment holds its operator (":", "=", ":=", "=>"): a line with neither is not searched.
        for m in _ASSIGN.finditer(line) if ":" in line or "=" in line else ():
            value = m.group("value").rstrip(".)")
            word = m.group("word").lower()
            if _NAMES_ITSELF.fullmatch(value.lower()) or value.lower() == m.group("key").lower():
                continue  # credentials=credentials, password=self.password: a variable, not a value
            if _reference_at(line, m.start("value")):
                continue  # {{ env_var('X') }}, $(op read ...): where the value comes from
            if _in_placeholder(line, m.start(), m.end("value")) or _in_resource_name(line, m.start()):
                continue  # <from 1Password: "X">, arn:aws:...:secret:prod/x: a placeholder or a name
            code = in_code(offset)
            is_password = word.startswith(("pass", "pw"))
            if is_password:
                if not code and not any(c in value for c in "([{<"):
                    if config_line is None:
                        config_line = bool(_CONFIG_LINE.match(line))
                    code = config_line  # a plain-word password on a line of its own, as in a profile
                ok = _password_like(value, code)
            elif word == "key":
                ok = _key_value_like(value)
            else:
                ok = _token_like(value) or (
                    code and word.startswith(("secret", "credential")) and _password_like(value, code)
                )
            if not ok:
                continue
            if context is None:
                above = note.lines[max(0, number - 1 - _CONTEXT_LINES) : number - 1]
                context = (line.lower(), "\n".join(above).lower())
            key = m.group("key")
            memo = (is_password, "secret" in key.lower())
            if memo not in context_kinds:
                context_kinds[memo] = _context_type(context[0], key, is_password) or _context_type(
                    context[1], key, is_password
                )
            kind = (
                _context_type(key.lower(), key, is_password)
                or context_kinds[memo]
                or ("Password" if is_password else "Secret Assignment")
            )
            start = offset + m.start("value")
            yield _Span(start, start + len(value), kind)
        for m in _PROSE_IS.finditer(line):
            value = m.group("value").rstrip(".)")
            is_password = m.group("word").lower().startswith("pass")
            if m.group("verb") is None:
                is_password = False  # no "is": only a random-looking value counts ("password reset" does not)
            if _reference_at(line, m.start("value")):
                continue
            if _password_like(value, False) if is_password else _token_like(value):
                start = offset + m.start("value")
                yield _Span(start, start + len(value), "Password" if is_password else "Secret Assignment")


_DB_SCHEMES = re.compile(
    r"postgres|postgresql|mysql|mariadb|snowflake|redshift|mssql|sqlserver|oracle|mongodb|redis|rediss|"
    r"clickhouse|databricks|trino|presto|vertica|db2|cockroachdb|teradata|bigquery|duckdb|amqp|hive|impala"
)
_URL_CREDENTIALS = re.compile(
    r"(?i)\b(?P<scheme>(?:jdbc:)?[a-z][a-z0-9+.\-]*)://(?P<user>[^\s:/@'\"<>]*):(?P<password>[^\s@'\"<>/]+)@"
)


# A key written as a URL's user part with no password: a Sentry DSN, "https://TOKEN@github.com/...".
_URL_TOKEN_USER = re.compile(r"://(?P<token>[A-Za-z0-9_\-]{20,200})@[\w\-]+(?:\.[\w\-]+)+")


def _url_credentials(note: _Note, in_code: Callable[[int], bool]) -> Iterable[_Span]:
    if "://" not in note.text:
        return
    if "@" in note.text:
        for m in _URL_TOKEN_USER.finditer(note.text):
            if _token_like(m.group("token")) and any(c.isdigit() for c in m.group("token")):
                yield _Span(m.start("token"), m.end("token"), "URL Credentials")
    for m in _URL_CREDENTIALS.finditer(note.text):
        password = m.group("password")
        if _not_a_value(password) or _reference_at(note.text, m.start("password")) or password.lower() in ("password", "pass", "passwd", "pwd", "secret"):
            continue
        if default_login(m.group("user"), password):
            continue  # postgres:postgres@localhost: the software's default login, as documentation shows it
        if password.isdigit() and len(password) <= 5:  # host:port, not user:password
            continue
        scheme = m.group("scheme").lower().removeprefix("jdbc:").split("+")[0]
        kind = "Database URL Password" if _DB_SCHEMES.fullmatch(scheme) else "URL Credentials"
        yield _Span(m.start("password"), m.end("password"), kind)


# -----BEGIN ... PRIVATE KEY----- through its END line; without one, the rest of the line and the
# base64 lines that follow (a truncated paste), never the whole rest of a transcript.
_PRIVATE_KEY_BLOCK = re.compile(
    r"-----BEGIN[A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?-----"
    r"(?:.{0,20000}?-----END[A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?-----"
    r"|[^\n]*(?:\n[ \t]*[A-Za-z0-9+/=]{16,}[ \t]*(?=\n|\Z))*)",
    re.DOTALL,
)


def _private_keys(note: _Note, in_code: Callable[[int], bool]) -> Iterable[_Span]:
    if "PRIVATE KEY" not in note.text:
        return
    for m in _PRIVATE_KEY_BLOCK.finditer(note.text):
        yield _Span(m.start(), m.end(), "Private Key")


# A GCP service-account key file: "private_key_id": "<hex>", "private_key": "-----BEGIN ...".
_GCP_KEY = re.compile(r'"private_key(?P<id>_id)?"\s*:\s*"(?P<value>[^"]{16,})"')


def _gcp_service_account(note: _Note, in_code: Callable[[int], bool]) -> Iterable[_Span]:
    if "private_key" not in note.text:
        return
    for m in _GCP_KEY.finditer(note.text):
        value = m.group("value")
        if m.group("id"):
            if not re.fullmatch(r"[0-9a-fA-F]{16,64}", value):
                continue
        elif not ("PRIVATE KEY" in value or re.fullmatch(r"[A-Za-z0-9+/=\\]{40,}", value)):
            continue
        yield _Span(m.start("value"), m.end("value"), "GCP Service Account Key")


# A GCP key id outside JSON quotes (YAML, ini, a profile's keyfile_json written as YAML).
_GCP_KEY_ID_UNQUOTED = re.compile(r"""\bprivate_key_id["'`]?[ \t]*[:=][ \t]*["'`]?(?P<value>[0-9a-fA-F]{32,64})\b""")


def _gcp_key_id_unquoted(note: _Note, in_code: Callable[[int], bool]) -> Iterable[_Span]:
    if "private_key_id" not in note.text:
        return
    for m in _GCP_KEY_ID_UNQUOTED.finditer(note.text):
        yield _Span(m.start("value"), m.end("value"), "GCP Service Account Key")


# The base64 body of a private key pasted without its BEGIN line: the DER structure every such key
# starts with (PKCS#1 and PKCS#8 RSA, PKCS#8 and SEC1 EC, encrypted PKCS#8, OpenSSH). Certificates
# and public keys start differently.
_KEY_BODY = re.compile(
    r"(?<![A-Za-z0-9+/])(?:MII[A-Za-z0-9+/]{3}IBAAKC|MII[A-Za-z0-9+/]{3}IBADAN|MI[GH][A-Za-z0-9+/]AgEAMBMGByqGSM49"
    r"|MHcCAQEEI|MIGkAgEBBDA|MIHcAgEBBEI|MII[A-Za-z0-9+/]{3}[A-Za-z0-9+/]{0,4}BgkqhkiG9w0BBQ0w|b3BlbnNzaC1rZXktdjE)"
    r"[A-Za-z0-9+/=]{8,}(?:\r?\n[ \t]*[A-Za-z0-9+/=]{16,}[ \t]*(?=\r?\n|\Z))*"  # and the body lines that follow
)


def _private_key_bodies(note: _Note, in_code: Callable[[int], bool]) -> Iterable[_Span]:
    if "MI" not in note.text and "MH" not in note.text and "b3BlbnNzaC1rZXktdjE" not in note.text:
        return
    for m in _KEY_BODY.finditer(note.text):
        yield _Span(m.start(), m.end(), "Private Key")


# A Markdown table with a password, secret, token or key column, or a row naming one with its value
# in the next cell: configs pasted as tables.
_TABLE_ROW = re.compile(r"^[ \t]*\|.*\|[ \t]*$")
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{2,}")
_TABLE_SECRET_HEADER = re.compile(
    r"^(?:[a-z0-9_ .\-]{0,30}[ _\-])?(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[ _\-]?key|access[ _\-]?key|"
    r"private[ _\-]?key|client[ _\-]?secret|credentials?)s?$"
)


def _cells(line: str) -> list[str]:
    return [c.strip().strip("`").strip() for c in line.strip().strip("|").split("|")]


def _table_cell_secret(header: str, value: str) -> bool:
    if not value or " " in value or _reference_at(value, 0):
        return False
    if header.startswith(("pass", "pwd")) or " pass" in header or "_pass" in header or "-pass" in header:
        return _password_like(value, True)
    return _token_like(value) or ("secret" in header and _password_like(value, True))


def _tables(note: _Note, in_code: Callable[[int], bool]) -> Iterable[_Span]:
    if "|" not in note.text or not _CANDIDATE_KEYWORD.search(note.lower):
        return
    lines = note.lines
    header: list[str] | None = None
    for number, line in enumerate(lines, start=1):
        if not _TABLE_ROW.match(line):
            header = None
            continue
        cells = _cells(line)
        is_header = header is None
        if is_header:
            header = [c.lower() for c in cells]
        elif _TABLE_RULE.match(line):
            continue
        offset = note.starts[number - 1]
        found: set[int] = set()
        for i, value in enumerate(cells):
            title = header[i] if i < len(header) and not is_header else ""
            if _TABLE_SECRET_HEADER.match(title) and _table_cell_secret(title, value):
                found.add(i)
            label = value.lower()
            if i + 1 < len(cells) and _TABLE_SECRET_HEADER.match(label) and _table_cell_secret(label, cells[i + 1]):
                found.add(i + 1)
        for i in sorted(found):
            at = line.find(cells[i])
            if at >= 0:
                named = cells[i - 1].lower() if i else ""
                column = header[i] if i < len(header) else ""
                kind = "Password" if "pass" in column or "pass" in named else "Secret Assignment"
                yield _Span(offset + at, offset + at + len(cells[i]), kind)


# A YAML password written as a block scalar: "password: >-" with the value on the next line.
_YAML_BLOCK_PASSWORD = re.compile(
    r"(?im)^([ \t]*)[\w.\-]*(?:pass(?:word|wd|phrase)?|pwd|secret)[ \t]*:[ \t]*[|>][+\-]?[ \t]*\r?\n"
    r"\1[ \t]+(?P<value>\S+)[ \t]*$"
)
# SQL: CREATE USER ... IDENTIFIED BY 'secret' (Oracle, MySQL, Redshift).
_SQL_IDENTIFIED_BY = re.compile(
    r"(?i)\b(?:create|alter)[ \t]+(?:user|login|role)\b[^\n;]{0,200}?\bidentified[ \t]+by[ \t]+(?:password[ \t]+)?"
    r"['\"]?(?P<value>[^\s'\";]{4,})"
)


def _yaml_and_sql_passwords(note: _Note, in_code: Callable[[int], bool]) -> Iterable[_Span]:
    lower = note.lower
    if ":" in note.text and ("|" in note.text or ">" in note.text) and _ASSIGN_WORD.search(lower):
        for m in _YAML_BLOCK_PASSWORD.finditer(note.text):
            if _password_like(m.group("value"), True):
                yield _Span(m.start("value"), m.end("value"), "Password")
    if "identified" in lower:
        for m in _SQL_IDENTIFIED_BY.finditer(note.text):
            if _password_like(m.group("value"), True):
                yield _Span(m.start("value"), m.end("value"), "Password")


# Passwords given on a command line: mysql -pSECRET, sshpass -p SECRET, security ... -w SECRET.
_CLI_PASSWORD = re.compile(
    r"\b(?:(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]{0,200}?[ \t]-p(?P<a>[^\s'\"`]{4,})"
    r"|sshpass[ \t]+-p[ \t]*[\"']?(?P<b>[^\s'\"`]{4,})"
    r"|security[ \t]+add-(?:generic|internet)-password\b[^\n]{0,200}?[ \t]-w[ \t]+[\"']?(?P<c>[^\s'\"`]{4,})"
    # A login command given its password as a flag: docker login -p X, any "login ... --password X".
    r"|\blogin\b[^\n]{0,200}?[ \t](?:-p|--password|--passwd|--pass)(?:[ \t]+|=)[\"']?(?P<d>[^\s'\"`]{4,})"
    r"|-passout[ \t]+pass:(?P<e>[^\s'\"`]{4,})"
    # A CLI's login given its key as the argument: "wandb login KEY", "<tool> login --token KEY".
    r"|(?:(?<=\n)|^|(?<=`))[ \t>$]*[a-z][a-z0-9._\-/]{1,29}[ \t]+login[ \t]+(?:--?(?:token|key|api-key|with-token)(?:[ \t]+|=))?[\"']?(?P<f>[A-Za-z0-9_\-.]{32,200})(?![\w\-.]))"
)


def _cli_passwords(note: _Note, in_code: Callable[[int], bool]) -> Iterable[_Span]:
    if not any(word in note.lower for word in ("mysql", "mariadb", "sshpass", "security add-", "login", "pass:")):
        return
    for m in _CLI_PASSWORD.finditer(note.text):
        group = next(g for g in ("a", "b", "c", "d", "e", "f") if m.group(g))
        value = m.group(group)
        if group == "d" and not _password_like(value, False):
            continue  # "login ... -p 5432" is a port, "--password-stdin" a flag
        if group == "f" and not token_shaped(value):
            continue  # "login registry.example.com": a host, not a key
        if not _not_a_value(value) and not _reference_at(note.text, m.start(group)):
            yield _Span(m.start(group), m.end(group), "Password")


# A line of a colon-separated credential file: .pgpass (host:port:database:user:password), the same
# shape in other clients' files. The last field is the password.
_COLON_CREDENTIAL_LINE = re.compile(
    r"(?m)^[ \t>]*(?:[-*+][ \t]+)?`?(?:[\w.\-*]+|\[[0-9A-Fa-f:]+\]):(?:\d{1,5}|\*):[\w.\-*$]+:[^\s:]+:(?P<value>[^\s`]+)`?[ \t]*$"
)


def _colon_credential_lines(note: _Note, in_code: Callable[[int], bool]) -> Iterable[_Span]:
    if note.text.count(":") < 4:
        return
    for m in _COLON_CREDENTIAL_LINE.finditer(note.text):
        value = m.group("value")
        if not _not_a_value(value) and not _reference_at(note.text, m.start("value")) and _password_like(value, True):
            yield _Span(m.start("value"), m.end("value"), "Password")


# A long random token on a line that names a key, secret, token or password (or just below one):
# "SecretAccessKey AbC...", "The key is:" followed by the key on its own line.
_BARE_TOKEN = re.compile(r"(?<![A-Za-z0-9+/=_\-])[A-Za-z0-9+/_\-]{32,}={0,2}(?![A-Za-z0-9+/=_\-])")
_SECRET_WORD = re.compile(
    r"secret|token|passw|credential|api[ _\-]?key|apikey|access[ _\-]?key|private[ _\-]?key|\bkey\b|signing|hmac|\bsalt\b"
)
_IN_URL = re.compile(r"://\S*$")
_PUBLIC_ID = re.compile(r"^(?:memstore|mem|memver|setaside|apikey|run|sha\d{3})[_\-]")


def _random_token(value: str) -> bool:
    return (
        any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and any(c.isdigit() for c in value)
        and _entropy(value) >= 4.2
        and not _PUBLIC_ID.match(value)
        and not _not_a_value(value)
        and not encoded_data(value)  # base64 of a JSON header or a cursor, with no credential in it
    )


_FINGERPRINT_BEFORE = re.compile(r"(?i)(?:sha\d{0,3}|md5|h1|blake2[bs]?|sri|integrity)[:=\-]$")
_PUBLIC_KEY_LINE = re.compile(r"(?i)\b(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-\S+|fingerprint|public key)\b")


def _word_at(line: str, column: int) -> str:
    """The whitespace- or quote-delimited word of ``line`` that holds ``column``."""
    start = column
    while start > 0 and not line[start - 1].isspace() and line[start - 1] not in "\"'`":
        start -= 1
    end = column
    while end < len(line) and not line[end].isspace() and line[end] not in "\"'`":
        end += 1
    return line[start:end].rstrip(".,;:)")


def _bare_tokens(note: _Note, in_code: Callable[[int], bool]) -> Iterable[_Span]:
    # Random tokens are rare in lessons: find them first, then look for a secret word around each.
    for m in _BARE_TOKEN.finditer(note.text):
        if not _random_token(m.group(0)):
            continue
        number = note.line_of(m.start())
        line = note.lines[number - 1]
        column = m.start() - note.starts[number - 1]
        if column > 0 and line[column - 1] == "/" or _IN_URL.search(line, max(0, column - 300), column):
            continue  # a segment of a URL or a path, such as a document id
        if _FINGERPRINT_BEFORE.search(line, max(0, column - 12), column) or _PUBLIC_KEY_LINE.search(line):
            continue  # a public key's fingerprint or body: shown, not kept secret
        if not _SECRET_WORD.search("\n".join(note.lines[max(0, number - 3) : number]).lower()):
            continue
        word = _word_at(line, column)
        if hash_prefixed(word):
            continue  # the tail of a stored password hash ("$2b$12$...", "pbkdf2_sha256$..."): not the password
        if word != m.group(0) and is_placeholder(word):
            continue  # a part of a whole documented example (a JWT signed with a published key)
        yield _Span(m.start(), m.end(), "Secret Assignment")


# A vendor-prefixed token the rule sets do not know yet: a short lower-case prefix ending in "_" or
# "-" ("hf_", "r8_", "gsk_", "xai-", "sk_live_"), then a long random body. Public ids with a prefix
# (Stripe's "evt_" + 24) are shorter; identifiers and hashes are not mixed-case random.
_VENDOR_TOKEN = re.compile(
    r"(?P<prefix>[a-z][a-z0-9]{1,11}(?:[_\-][a-z0-9]{1,8})?[_\-])(?P<body>[A-Za-z0-9_\-]{32,250})"
)
# Runs long enough to hold one, found first: ordinary prose has few (one cheap linear pass).
_LONG_RUN = re.compile(r"(?<![A-Za-z0-9_\-/.+=])[A-Za-z0-9_\-]{35,260}(?![A-Za-z0-9_\-/+=])")


# A credential word as the prefix of a long hex body: "key-24f6...", "token_9c1e...", "secret-...".
_WORD_PREFIXED_HEX = re.compile(r"(?:apikey|key|token|secret|api)[_\-](?P<body>[0-9a-f]{32,64})")


def _vendor_tokens(note: _Note, in_code: Callable[[int], bool]) -> Iterable[_Span]:
    for run in _LONG_RUN.finditer(note.text):
        # A credential word, then hex: each is a long run too, so it costs no pass of its own.
        hexed = _WORD_PREFIXED_HEX.fullmatch(note.text, run.start(), run.end())
        if hexed is not None:
            body = hexed.group("body")
            if any(c.isdigit() for c in body) and any(c.isalpha() for c in body):
                yield _Span(run.start(), run.end(), "Vendor Token")
            continue
        m = _VENDOR_TOKEN.fullmatch(note.text, run.start(), run.end())
        if m is None:
            continue
        body = m.group("body")
        if not _random_token(body) or _entropy(body) < 4.3 or _PUBLIC_ID.match(m.group(0)):
            continue
        line_start = note.starts[note.line_of(m.start()) - 1]
        if _IN_URL.search(note.text, max(line_start, m.start() - 300), m.start()):
            continue  # a segment of a URL, such as a document id
        if is_placeholder(m.group(0)):
            continue
        yield _Span(m.start(), m.end(), "Vendor Token")


# A key with an upper-case vendor prefix and no key word near it ("NRAK-" + 27, "NRJS-" + 19 hex):
# four to eight capitals, a hyphen, then a random body with letters and digits. A ticket key has
# digits only ("ORB-1422"); a hash of a standard length is a digest; an id the line calls one is not a key.
_UPPER_PREFIXED = re.compile(r"(?<![A-Za-z0-9_\-])[A-Z]{4,8}-(?P<body>[A-Za-z0-9][A-Za-z0-9_\-]{18,63})(?![A-Za-z0-9_\-])")
_ID_CONTEXT = re.compile(r"(?i)\b(?:request|trace|correlation|order|invoice|build|run|job|ticket|ulid|uuid|sha\d*|md5)\b")


def _upper_prefixed_tokens(note: _Note, in_code: Callable[[int], bool]) -> Iterable[_Span]:
    for m in _UPPER_PREFIXED.finditer(note.text):
        body = m.group("body")
        if not _has_digit_and_letter(body) or _entropy(body) < 3.0 or is_placeholder(m.group(0)):
            continue
        if ("_" in body or "-" in body) and not _random_token(body):
            continue  # "TEAM-build_artifact_2024": words joined, not a random body
        if len(body) in (32, 40, 64) and all(c in "0123456789abcdefABCDEF" for c in body):
            continue  # a digest of a standard length behind a label
        number = note.line_of(m.start())
        line_start = note.starts[number - 1]
        if _ID_CONTEXT.search(note.lines[number - 1]) or _IN_URL.search(note.text, line_start, m.start()):
            continue
        yield _Span(m.start(), m.end(), "Vendor Token")


# A pgbouncer ``userlist.txt`` line: ``"user" "password"`` (or its md5 / SCRAM verifier, which logs in
# as well as the password does), alone on its line or after a label ending in a colon.
_USERLIST_LINE = re.compile(
    r"""(?m)^[ \t>*\-]*(?:[^"\n]{0,60}:[ \t]*)?"[^"\s]{1,63}"[ \t]+"(?P<value>[^"\n]{4,200})"[ \t]*$"""
)
_VERIFIER = re.compile(r"md5[0-9a-f]{32}|SCRAM-SHA-256\$\d+:\S+")


def _userlist_lines(note: _Note, in_code: Callable[[int], bool]) -> Iterable[_Span]:
    if '" "' not in note.text and '"\t"' not in note.text:
        return
    for m in _USERLIST_LINE.finditer(note.text):
        value = m.group("value")
        if _VERIFIER.fullmatch(value):
            yield _Span(m.start("value"), m.end("value"), "Password")
        elif (
            "/" not in value
            and " " not in value
            and not _not_a_value(value)
            and not _reference_at(note.text, m.start("value"))
            and _password_like(value, False)
        ):
            yield _Span(m.start("value"), m.end("value"), "Password")


def _prose(note: _Note, in_code: Callable[[int], bool]) -> Iterable[_Span]:
    """Credentials written in prose (English, German, French, Spanish): see ``secret_prose``."""
    for start, end, kind in secret_prose.prose_spans(note.text, note.lower, note.lines, note.starts):
        yield _Span(start, end, kind)


def _known_formats(note: _Note, in_code: Callable[[int], bool]) -> Iterable[_Span]:
    """Provider formats from the maintained rule set (Kingfisher's): see ``secret_formats``."""
    for f in secret_formats.scan_formats(note.text):
        yield _Span(f.start, f.end, f.type)


_RULES: tuple[Rule, ...] = (
    _regex_rule("Anthropic API Key", ("sk-ant-",), r"\bsk-ant-[A-Za-z0-9_\-]{20,}"),
    _regex_rule(
        "OpenAI Token",
        ("sk-",),
        r"\bsk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\-]{20,}",
        check=_has_digit_and_letter,
    ),
    _regex_rule(
        "GitHub Token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})",
    ),
    _regex_rule(
        "Slack Token",
        ("xox", "xapp-", "hooks.slack.com"),
        r"\b(?:xox[abposre]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,})"
        r"|https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/]{10,}",
    ),
    _regex_rule(
        "AWS Access Key",
        ("akia", "asia", "abia", "acca", "a3t"),
        r"\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b",
    ),
    _regex_rule(
        "AWS Secret Access Key",
        ("secret",),
        r"(?i)aws_?secret_?(?:access_?)?key[\"'`\]]{0,2}\s*(?:=|:)\s*[\"'`]?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])",
        group=1,
    ),
    _regex_rule("Atlassian API Token", ("atatt", "atctt"), r"\bAT[AC]TT[A-Za-z0-9_\-=]{20,}"),
    # Braintree's access token and age's secret key: formats their documentation gives.
    _regex_rule(
        "Braintree Access Token",
        ("access_token$",),
        r"\baccess_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}\b",
    ),
    _regex_rule("Age Secret Key", ("age-secret-key-1",), r"\bAGE-SECRET-KEY-1[0-9A-Z]{40,80}\b"),
    _regex_rule("Google API Key", ("aiza",), r"\bAIza[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])"),
    _regex_rule("Google OAuth Client Secret", ("gocspx-",), r"\bGOCSPX-[A-Za-z0-9_\-]{20,}"),
    _regex_rule("Databricks Token", ("dapi",), r"\bdapi[0-9a-f]{32}(?:-\d+)?\b"),
    _regex_rule("Google OAuth Token", ("ya29.", "1//0"), r"\bya29\.[A-Za-z0-9_\-]{20,}|(?<![\w/])1//0[A-Za-z0-9_\-]{30,}"),
    _regex_rule("Azure SAS Signature", ("sig=",), r"[?&]sig=([A-Za-z0-9%+/]{30,}(?:%3[dD]|=){0,2})", group=1),
    _regex_rule("HubSpot Token", ("pat-",), r"\bpat-(?:na|eu|ap)\d-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"),
    _regex_rule("Shopify Token", ("shpat_", "shpss_", "shpca_", "shppa_"), r"\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b"),
    _regex_rule("dbt Cloud Token", ("dbtc_", "dbtu_"), r"\bdbt[cu]_[A-Za-z0-9_\-]{30,}"),
    # detect-secrets knows GitLab's prefixes too; ours also runs on a note whose wrapped lines are joined.
    _regex_rule(
        "GitLab Token",
        ("gl",),
        r"\bgl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas|rrt|wt)-[A-Za-z0-9_\-]{20,}",
        check=_has_digit_and_letter,
    ),
    _regex_rule(
        "JSON Web Token", ("eyj",), r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"
    ),
    _regex_rule(
        "Bearer Token",
        ("bearer",),
        r"(?i)\bbearer\s+([A-Za-z0-9\-._~+/]{16,}=*)",
        group=1,
        check=lambda v: _token_like(v) or (len(v) >= 24 and _has_digit_and_letter(v) and not _not_a_value(v)),
    ),
    _regex_rule(
        # Any other scheme a provider names: "SSWS" (Okta), "Token", "Bot", "GenieKey", "Splunk", "ApiKey".
        "Authorization Header",
        ("authorization",),
        r"(?i)\bauthorization[\"'`]?\s*[:=]\s*[\"'`]?(?!bearer\b|basic\b)[A-Za-z][\w\-]{1,20}\s+([A-Za-z0-9\-._~+/]{16,}=*)",
        group=1,
        check=lambda v: _token_like(v) and not _not_a_value(v),
    ),
    _regex_rule(
        "Basic Auth Header",
        ("basic",),
        r"(?i)\bauthorization[\"'`]?\s*[:=]?\s*[\"'`]?basic\s+([A-Za-z0-9+/]{12,}={0,2})",
        group=1,
        check=lambda v: not _not_a_value(v),
    ),
    _regex_rule(
        "Credential Pair",  # curl -u KEY:SECRET, how Fivetran's REST API is called
        ("curl",),
        r"(?i)\bcurl\b[^\n]{0,300}?\s(?:-u|--user)\s+[\"']?[A-Za-z0-9_.@+\-]{2,}:([^\s\"'`]{4,})",
        group=1,
        check=lambda v: _token_like(v) or _password_like(v, True),
    ),
    _url_credentials,
    _private_keys,
    _private_key_bodies,
    _gcp_service_account,
    _gcp_key_id_unquoted,
    _assignments,
    _tables,
    _yaml_and_sql_passwords,
    _cli_passwords,
    _colon_credential_lines,
    _bare_tokens,
    _vendor_tokens,
    _upper_prefixed_tokens,
    _userlist_lines,
    _regex_rule(
        # Neither rule set knows the webhook URL: its last path segment is the secret.
        "Discord Webhook URL",
        ("/webhooks/",),
        r"https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/webhooks/\d{5,25}/([A-Za-z0-9_\-]{40,100})",
        group=1,
    ),
    _prose,
    _known_formats,
)

_FENCE = re.compile(r"^[ \t]{0,3}(?:```|~~~)", re.MULTILINE)


def _code_checker(text: str) -> Callable[[int], bool]:
    """Whether an offset sits inside a fenced code block (profiles and configs live there)."""
    if "```" not in text and "~~~" not in text:
        return lambda offset: False
    fences = [m.start() for m in _FENCE.finditer(text)]
    return lambda offset: bisect.bisect_right(fences, offset) % 2 == 1


def _own_spans(note: _Note) -> list[_Span]:
    in_code = _code_checker(note.text)
    spans: list[_Span] = []
    for rule in _RULES:
        spans.extend(rule(note, in_code))
    return spans


# --------------------------------------------------------------------------------------------
# Other readings of a note: a key split over lines, and secrets hidden in an encoding
# --------------------------------------------------------------------------------------------

# Rules keyed on a distinctive prefix, safe to run on the note with its line breaks glued shut.
_JOINABLE = frozenset(
    {
        "Anthropic API Key", "OpenAI Token", "GitHub Token", "Slack Token", "AWS Access Key", "Atlassian API Token",
        "Google API Key", "Google OAuth Client Secret", "Google OAuth Token", "Databricks Token", "dbt Cloud Token",
        "JSON Web Token", "GitLab Token", "_known_formats", "_vendor_tokens",
    }
)
# The glue between two token characters across one line break: a string continued on the next line
# ("...abc" +\n "def...", a trailing backslash, a quoted block's "> ", indentation).
_GLUE_BEFORE = re.compile(r"""[A-Za-z0-9_\-](["'`]?[ \t]*(?:\+|\\|&)?[ \t]*\r?)$""")
_GLUE_AFTER = re.compile(r"""[ \t>]*(?:\+[ \t]*)?["'`]?(?=[A-Za-z0-9_\-])""")
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_GLUE_ENDS = _TOKEN_CHARS | frozenset("\"'`+\\& \t\r")
_GLUE_STARTS = _TOKEN_CHARS | frozenset("\"'`+> \t")
_MAX_DEPTH = 2  # a secret inside an encoding inside an encoding is found; deeper nesting stops here
# Runs of base64 (or hex) characters; each is taken whole, left to right.
_ENCODED_RUN = re.compile(r"[A-Za-z0-9+/_\-]{16,}={0,2}")
_HEX_RUN = re.compile(r"(?:[0-9A-Fa-f]{2}){12,}")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


_JOIN_PREFIXES = re.compile(
    r"(?<![A-Za-z0-9])sk-|gh[pousr]_|github_pat_|xox[abposre]-|xapp-|A(?:KIA|SIA|BIA|CCA|3T)|AT[AC]TT|AIza|GOCSPX-|"
    r"ya29|1//0|dapi|dbt[cu]_|eyJ|MI[GIH]|MHc|b3BlbnNz|"
    # Any vendor prefix ("glpat-", "dckr_pat_", "hf_", "key-"): the rule sets on the joined text decide.
    r"(?<![A-Za-z0-9])[a-z]{2,8}[_\-](?:[a-z]{2,6}[_\-])?(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{4,}"
)
_TOKEN_TAIL = re.compile(r"[A-Za-z0-9_\-]{1,200}$")
_TOKEN_HEAD = re.compile(r"[A-Za-z0-9_\-]{1,200}")


def _joined_spans(note: _Note) -> list[_Span]:
    """Prefix-keyed secrets split over lines, found on the note with those line breaks removed.

    Only line breaks between a token that holds a known prefix and the token that goes on with it are
    glued, so ordinary prose costs one linear pass.
    """
    if "\n" not in note.text:
        return []
    text = note.text
    glue: list[tuple[int, int]] = []  # (start, end) of each line break to remove, with what wraps it
    for newline in (n - 1 for n in note.starts[1:]):
        if newline == 0 or text[newline - 1] not in _GLUE_ENDS or text[newline + 1 : newline + 2] not in _GLUE_STARTS:
            continue  # most lines end a sentence ("."), or a paragraph: nothing to glue
        before = _GLUE_BEFORE.search(text, max(0, newline - 16), newline)
        after = _GLUE_AFTER.match(text, newline + 1)
        if before is None or after is None:
            continue
        start, end = before.start(1), after.end()
        left = _TOKEN_TAIL.search(text, max(0, start - 200), start)
        right = _TOKEN_HEAD.match(text, end)
        if _JOIN_PREFIXES.search((left.group(0) if left else "") + (right.group(0) if right else "")):
            glue.append((start, end))
    if not glue:
        return []
    rules = [r for r in _RULES if getattr(r, "__name__", "") in _JOINABLE]
    rules.append(_private_key_bodies)
    pieces: list[str] = []
    where: list[int] = []  # original offset of each joined character
    pos = 0
    for start, end in glue:
        pieces.append(note.text[pos:start])
        where.extend(range(pos, start))
        pos = end
    pieces.append(note.text[pos:])
    where.extend(range(pos, len(note.text)))
    joined = _Note("".join(pieces))
    in_code = _code_checker(joined.text)
    spans = []
    for rule in rules:
        for span in rule(joined, in_code):
            start, end = where[span.start], where[span.end - 1] + 1
            if note.line_of(start) != note.line_of(end - 1):  # only what the join itself revealed
                spans.append(_Span(start, end, span.type))
    return spans


def _decoded(raw: bytes) -> str | None:
    """Bytes as text, if they read as text (a decoding of a secret, not random bytes)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(text) < 8:
        return None
    printable = sum(1 for c in text if c.isprintable() or c in "\n\r\t")
    return text if printable >= 0.95 * len(text) else None


def _base64_text(blob: str) -> str | None:
    padded = blob.rstrip("=") + "=" * (-len(blob.rstrip("=")) % 4)
    for decode in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            text = _decoded(decode(padded))
        except (binascii.Error, ValueError):
            continue
        if text is not None:
            return text
    return None


# What a basic-auth value encodes: "user:password" (a login name, a colon, a password-shaped value).
_PAIR_TEXT = re.compile(r"[\w.@+\-]{2,64}:(?P<value>[^\s:]{6,128})")


def _credential_pair(decoded: str) -> bool:
    """Whether a decoded text is a ``user:password`` pair (what "Basic" auth and many configs encode)."""
    m = _PAIR_TEXT.fullmatch(decoded.strip())
    return m is not None and password_shaped(m.group("value"), strict=True) and not default_login(
        decoded.strip()[: m.start("value") - 1], m.group("value")
    )


def _encoded_spans(note: _Note, depth: int) -> list[_Span]:
    """Secrets hidden in base64 or hex blobs, or in a line written with entities, %-escapes,
    invisible characters or look-alike (full-width) letters: decoded, then scanned again.
    """
    if depth >= _MAX_DEPTH:
        return []
    spans: list[_Span] = []
    for m in _ENCODED_RUN.finditer(note.text):
        blob = m.group(0)
        decodings = [(_base64_text(blob), "base64")]
        hex_run = _HEX_RUN.fullmatch(blob.rstrip("="))
        if hex_run is not None:
            decodings.append((_decoded(bytes.fromhex(hex_run.group(0))), "hex"))
        for text, label in decodings:
            if text is None:
                continue
            if _credential_pair(text):
                spans.append(_Span(m.start(), m.end(), f"Credential Pair ({label}-encoded)"))
                continue
            for finding in _scan(text, depth + 1):
                spans.append(_Span(m.start(), m.end(), f"{finding.type} ({label}-encoded)"))
    # Line by line, so line numbers stay those of the note; a finding covers its whole line.
    if not note.text.isascii() or "&" in note.text or "%" in note.text:
        for number, line in enumerate(note.lines, start=1):
            plain = _plain(line)
            if plain == line:
                continue
            offset = note.starts[number - 1]
            for finding in _scan(plain, depth + 1):
                spans.append(_Span(offset, offset + len(line), f"{finding.type} (disguised)"))
    return spans


def _plain(line: str) -> str:
    """A line as it reads once decoded: entities and %-escapes decoded, invisible characters dropped,
    compatibility forms (full-width letters and digits) folded."""
    if "&" in line and _ENTITY.search(line):
        line = html.unescape(line)
    if "%" in line and len(_PERCENT.findall(line)) >= 2:
        line = urllib.parse.unquote(line)
    if not line.isascii():
        line = "".join(ch for ch in line if unicodedata.category(ch) != "Cf")
        line = unicodedata.normalize("NFKC", line)
    return line.replace("\r", " ").replace("\n", " ")


# A public key or certificate block: its base64 lines look random, and are published on purpose.
_PUBLIC_BLOCK = re.compile(
    r"-----BEGIN (?:[A-Z0-9 ]{0,20}PUBLIC KEY(?: BLOCK)?|CERTIFICATE(?: REQUEST)?|NEW CERTIFICATE REQUEST|X509 CRL)-----"
    r"(?:.{0,20000}?-----END [A-Z0-9 ]{1,40}-----|(?:\n[ \t]*(?:[A-Za-z0-9+/=]{8,}|\.\.\.|…)[ \t]*(?=\n|\Z))*)",
    re.DOTALL,
)


# A JSON Web Key: public when it holds none of the private members ("d", the RSA primes, "k").
_JWK = re.compile(r"\{[^{}]{0,4000}?[\"']kty[\"']\s*:[^{}]{0,4000}\}")
_JWK_PRIVATE = re.compile(r"[\"'](?:d|p|q|dp|dq|qi|k)[\"']\s*:")


def _public_jwks(text: str) -> list[tuple[int, int]]:
    """Where ``text`` holds a public JSON Web Key (a JWKS entry): its modulus looks random, and is published."""
    if "kty" not in text:
        return []
    return [(m.start(), m.end()) for m in _JWK.finditer(text) if not _JWK_PRIVATE.search(m.group(0))]


def _not_look_alikes(note: _Note, spans: list[_Span]) -> list[_Span]:
    """``spans`` less values that only look like secrets by their place: a digest its label names as
    one (a ``hashed_secret`` key), and anything inside an elided private key block."""
    elided = _elided_key_blocks(note.text)
    kept = []
    for s in spans:
        if elided and any(a <= s.start and s.end <= b + 2 for a, b in elided):
            continue  # the block, or its "\n" after END (a JSON string ends the block with one)
        line_start = note.starts[note.line_of(s.start) - 1]
        if hash_labelled(note.text[s.start : s.end], note.text[line_start : s.start]):
            continue
        kept.append(s)
    return kept


def _outside_public_blocks(note: _Note, spans: list[_Span]) -> list[_Span]:
    """``spans`` less those inside a public key or certificate block (a private key is never public),
    and less the look-alikes ``_not_look_alikes`` names."""
    if spans:
        spans = _not_look_alikes(note, spans)
    jwks = _public_jwks(note.text)
    if jwks:
        spans = [s for s in spans if not any(a <= s.start and s.end <= b for a, b in jwks)]
    if "-----BEGIN " not in note.text:
        return spans
    blocks = [(m.start(), m.end()) for m in _PUBLIC_BLOCK.finditer(note.text)]
    if not blocks:
        return spans
    return [
        s for s in spans
        if s.type == "Private Key" or not any(start <= s.start and s.end <= end for start, end in blocks)
    ]


def _all_spans(note: _Note, depth: int) -> list[_Span]:
    own = _outside_public_blocks(note, _own_spans(note))
    # A key found whole on its own line is not made longer by the words of the next line.
    found = {(s.start, s.type) for s in own}
    joined = [s for s in _joined_spans(note) if (s.start, s.type) not in found]
    return own + joined + _encoded_spans(note, depth)


def own_scan(text: str) -> list[SecretFinding]:
    """What our own plugins find (data-stack secrets and unquoted assignments)."""
    note = _Note(text)
    spans = _outside_public_blocks(note, _own_spans(note))
    return sorted({SecretFinding(s.type, note.line_of(s.start)) for s in spans}, key=_order)


def _scan(text: str, depth: int) -> list[SecretFinding]:
    note = _Note(text)
    found = {SecretFinding(s.type, n) for n, s in _detect_secrets_raw(note)}
    found.update(SecretFinding(s.type, note.line_of(s.start)) for s in _all_spans(note, depth))
    return sorted(found, key=_order)


# Texts ``scan`` found clean lately. A write scans its text in the checks and again when the text is
# saved (the scrubbed fields call ``redact``); a text with no finding has nothing to redact (both read
# the same findings), so the second scan is skipped. Bounded by characters, shared by a process' threads.
_CLEAN: dict[str, None] = {}
_CLEAN_MAX_CHARS = 1_000_000
_clean_chars = 0
_clean_lock = threading.Lock()


def _remember_clean(text: str) -> None:
    global _clean_chars
    if len(text) > _CLEAN_MAX_CHARS // 4:
        return
    with _clean_lock:
        if text in _CLEAN:
            return
        while _CLEAN and _clean_chars + len(text) > _CLEAN_MAX_CHARS:
            oldest = next(iter(_CLEAN))  # dicts keep insertion order: the first is the oldest
            del _CLEAN[oldest]
            _clean_chars -= len(oldest)
        _CLEAN[text] = None
        _clean_chars += len(text)


def scan(text: str) -> list[SecretFinding]:
    """Every secret in ``text``: detect-secrets' findings plus our own plugins', by line.

    Also found: keys split over lines, and secrets written in base64, hex, HTML entities, %-escapes,
    invisible characters or full-width letters (decoded and scanned again).
    """
    if not text:
        return []
    found = _scan(text, 0)
    if not found:
        _remember_clean(text)
    return found


def redact(text: str) -> str:
    """``text`` with every secret value replaced by ``[REDACTED:<type>]``; the rest kept as it was."""
    if not text or text in _CLEAN:
        return text
    note = _Note(text)
    spans = _all_spans(note, 0)
    for number, secret in _detect_secrets_raw(note):
        value = secret.secret_value or ""
        if not value:
            continue
        line, offset = note.line_text(number), note.starts[number - 1]
        # Whole occurrences first, so a short value does not eat parts of other words.
        found = list(re.finditer(rf"(?<![A-Za-z0-9]){re.escape(value)}(?![A-Za-z0-9])", line))
        found = found or list(re.finditer(re.escape(value), line))
        spans.extend(_Span(offset + m.start(), offset + m.end(), secret.type) for m in found)
    if not spans:
        return text  # untouched, line endings and all
    spans.sort(key=lambda s: (s.start, -s.end))
    merged: list[_Span] = []
    for span in spans:
        if merged and span.start < merged[-1].end:
            last = merged[-1]
            merged[-1] = _Span(last.start, max(last.end, span.end), last.type)
        else:
            merged.append(span)
    out: list[str] = []
    pos = 0
    for span in merged:
        out.append(note.text[pos : span.start])
        out.append(f"[REDACTED:{span.type}]")
        pos = span.end
    out.append(note.text[pos:])
    redacted = "".join(out)
    if "\r\n" in text and "\r" not in text.replace("\r\n", ""):
        redacted = redacted.replace("\n", "\r\n")  # give Windows line endings back
    return redacted
