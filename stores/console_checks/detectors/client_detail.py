"""Client detail in text: client names and aliases, Jira project keys, repositories, datasets, tables.

One matcher per registry. It builds two Aho-Corasick automata once (pyahocorasick) over normalised
forms of every term, then scans a text in one pass per automaton, however many clients there are.

The text is normalised once, with a map from every normalised character back to the original:
markup that splits a word is removed (Markdown emphasis and code marks, inline HTML tags, HTML
entities decoded, zero-width characters and soft hyphens dropped), letters are folded (case,
accents, full-width forms). Two views come out of it:

- the *clean* view keeps separators; identifiers (repositories, datasets, tables, project keys) are
  matched there, whole, with ``_`` counted as part of a word;
- the *names* view also drops spaces, ``-``, ``_`` and commas, so "Big Corp" is found as "bigcorp",
  "big-corp" or "BIG CORP". A match counts only if it starts and ends on word boundaries of the
  clean view and every separator it skipped sits between two words of the name ("stem the tide" is
  not the client "Stemt"; "between" is not the client "Wee").

Three general ways a name is written without being spelled as registered are also found:

- letter by letter, with the same space, hyphen or dot between every letter ("A C M E Labs",
  "a-c-m-e"): the text is read once more with each such run joined ("ACME Labs");
- with an English plural or possessive ending after it ("Acmes", "Acme's", "Acmes'", "Tidewell's"), and
  a name ending in consonant + "y" also with "ies" ("Tidy", "Tidies");
- base64 (standard or URL-safe, padded or not): a token that decodes to printable text is scanned too.

``scan(text, own_client=...)`` is for a project store: it reports only other clients' detail, and
a term that also belongs to ``own_client`` (two clients share a dataset name) is that client's.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

import ahocorasick

__all__ = ["ClientDetailFinding", "ClientDetailMatcher", "ClientTerm", "KINDS"]

KINDS = ("client name", "client alias", "repository", "dataset", "table", "distinctive table", "project key")
_NAME_KINDS = frozenset({"client name", "client alias"})


@dataclass(frozen=True)
class ClientTerm:
    """One name the registry knows: the term, its kind (one of KINDS) and its client."""

    term: str
    kind: str
    client: str


@dataclass(frozen=True)
class ClientDetailFinding:
    """A registry term found in a text."""

    term: str
    kind: str
    client: str


# Characters that split a word without being seen: zero-width, joiners, soft hyphen, bidi controls,
# BOM, Unicode tags, variation selectors, combining grapheme joiner.
_INVISIBLE = frozenset(
    [chr(c) for c in range(0x200B, 0x2010)]
    + [chr(c) for c in range(0x2060, 0x2070)]
    + [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0xFE00, 0xFE10)]
    + ["\u00ad", "\ufeff", "\u034f", "\u061c", "\u180e"]
)
# HTML elements that sit inside a word ("Ac<b>me</b>"); any other tag separates words.
_INLINE_TAGS = frozenset(
    "a abbr b bdi bdo big cite code del dfn em font i ins kbd mark q s samp small span strike strong sub sup "
    "tt u var wbr".split()
)
_SPECIAL = re.compile(
    r"<!--|-->"
    r"|<(?P<close>/?)(?P<tag>[A-Za-z][A-Za-z0-9]*)(?:\s[^<>]*)?/?>"
    r"|(?P<entity>&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});)"
    r"|[*~`]"
    r"|(?P<underscores>_+)"
    r"|[^\x00-\x7f]"
)
# Separators a name may have, or not have, between its words; apostrophes may come and go anywhere
# ("McDonald's", "McDonalds").
_NAME_SEPARATORS = frozenset(" \t\n\r\f\v-_,./+")
# Look-alike letters from other scripts that spell Latin ones ("Acmе" with a Cyrillic e), and the
# dashes that stand for a hyphen.
_CONFUSABLES = {
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y",
    "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ɡ": "g", "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "У": "Y",
    "Х": "X", "І": "I", "Ј": "J", "Ѕ": "S", "Ԛ": "Q", "Ԝ": "W",
    "α": "a", "ο": "o", "ρ": "p", "ι": "i", "κ": "k", "ν": "v", "τ": "t", "υ": "u", "ε": "e",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P",
    "Τ": "T", "Υ": "Y", "Χ": "X",
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
    "\ufe63": "-", "\uff0d": "-",
}
# German letters as they are written without their marks ("Müller" is also "Mueller").
_TRANSLITERATIONS = (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss"))
_APOSTROPHES = frozenset("'\u2019")
# What may follow a name and still be the name: a plural or possessive ending.
_PLURAL_ENDING = re.compile(r"(?:e?s)(?:['\u2019]s?)?|['\u2019]s?")
# Three or more single letters or digits, each pair split by one space, hyphen or dot ("a c m e").
_LETTER_RUN = re.compile(
    r"(?<![^\W_])[^\W_](?P<sep>[ .\-])(?:[^\W_](?P=sep))+[^\W_](?![^\W_])"
)
# A token that may be base64 (standard or URL-safe), long enough to hold a name.
_BASE64_TOKEN = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{6,}={0,2}(?![A-Za-z0-9+/=_-])")
_QUOTES_AROUND_DOT = frozenset("'\"[]")


def _fold(ch: str) -> str:
    """One character as the matcher sees it, case kept: accents and compatibility forms folded."""
    if ch in _INVISIBLE or 0xE0000 <= ord(ch) <= 0xE007F:
        return ""
    if ch.isspace():
        return " "
    if ch in _CONFUSABLES:
        return _CONFUSABLES[ch]
    decomposed = unicodedata.normalize("NFKD", ch)
    return "".join(c for c in decomposed if not unicodedata.combining(c) and c not in _INVISIBLE)


_FOLD_CACHE: dict[str, str] = {}


def _fold_cached(ch: str) -> str:
    folded = _FOLD_CACHE.get(ch)
    if folded is None:
        folded = _fold(ch)
        if len(_FOLD_CACHE) < 65536:
            _FOLD_CACHE[ch] = folded
    return folded


class _View:
    """A text normalised for matching, with maps back to the original positions."""

    def __init__(self, text: str) -> None:
        chars: list[str] = []  # folded, case kept
        where: list[int] = []  # index in ``text`` of each folded character

        def emit(piece: str, at: int) -> None:
            for ch in piece:
                folded = ch if ch.isascii() else _fold_cached(ch)
                for out in folded:
                    chars.append(out)
                    where.append(at)

        pos = 0
        for m in _SPECIAL.finditer(text):
            if m.start() > pos:  # plain ASCII run: copy as is
                chars.extend(text[pos : m.start()])
                where.extend(range(pos, m.start()))
            pos = m.end()
            token = m.group(0)
            if m.group("tag"):
                if m.group("tag").lower() not in _INLINE_TAGS:
                    chars.append(" ")
                    where.append(m.start())
            elif m.group("entity"):
                decoded = html.unescape(token)
                emit(" " if decoded == token else decoded, m.start())
            elif m.group("underscores"):
                before = text[m.start() - 1] if m.start() > 0 else " "
                after = text[m.end()] if m.end() < len(text) else " "
                if before.isalnum() and after.isalnum():  # inside an identifier, not emphasis
                    chars.extend(token)
                    where.extend(range(m.start(), m.end()))
            elif len(token) == 1 and not token.isascii():
                emit(token, m.start())
            # else: emphasis or code marks, comment delimiters: removed
        if pos < len(text):
            chars.extend(text[pos:])
            where.extend(range(pos, len(text)))

        # Quotes and brackets around the dot of a qualified name: "ACME"."ORDERS", [raw].[orders].
        keep = [
            not (
                ch in _QUOTES_AROUND_DOT
                and ((i > 0 and chars[i - 1] == ".") or (i + 1 < len(chars) and chars[i + 1] == "."))
            )
            for i, ch in enumerate(chars)
        ]
        self.cased = "".join(ch for ch, k in zip(chars, keep, strict=True) if k)
        self.where = [w for w, k in zip(where, keep, strict=True) if k]
        self.clean = self.cased.lower()
        if len(self.clean) != len(self.cased):  # a letter that lower-cases to two: keep the map exact
            self.clean = "".join(c.lower() if len(c.lower()) == 1 else c for c in self.cased)
        # The names view: clean without separators, and where each character sits in clean.
        self.names_at = [
            i
            for i, ch in enumerate(self.clean)
            if ch not in _NAME_SEPARATORS and ch not in _APOSTROPHES and not ch.isspace()
        ]
        self.names = "".join(self.clean[i] for i in self.names_at)

    def is_word(self, i: int, underscore: bool) -> bool:
        if i < 0 or i >= len(self.clean):
            return False
        ch = self.clean[i]
        return ch.isalnum() or (underscore and ch == "_")

    def ends_plural(self, end: int) -> bool:
        """Whether a word ending at ``end`` goes on with only a plural or possessive ending ("s", "es", "s'")."""
        m = _PLURAL_ENDING.match(self.clean, end + 1)
        return m is not None and not self.is_word(m.end(), underscore=False)



@dataclass(frozen=True)
class _Entry:
    term: ClientTerm
    gaps: frozenset[int]  # for names: offsets in the joined form where a separator may sit
    edge_start: bool  # whether the form starts with a word character (so a boundary is needed)
    edge_end: bool


def _fold_term(term: str) -> str:
    return "".join(_fold(ch) if not ch.isascii() else ch for ch in term).strip()


_SPLIT_NAME = re.compile(r"[\s\-_,]+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])")


def _name_forms(term: str) -> list[tuple[str, frozenset[int]]]:
    """A client name's forms: as written, transliterated ("Mueller"), with "&" as "and" and as "+"."""
    variants = [term]
    lower = term.lower()
    if any(mark in lower for mark, _ in _TRANSLITERATIONS):
        spelled = lower
        for mark, plain in _TRANSLITERATIONS:
            spelled = spelled.replace(mark, plain)
        variants.append(spelled)
    if "&" in term:
        variants += [v.replace("&", " and ") for v in variants]
    forms = [form for form in map(_name_form, variants) if form is not None]
    # A name ending in consonant + "y" has the plural "-ies" ("Tidy" -> "Tidies"); "-s" is the ending rule's.
    forms += [
        (joined[:-1] + "ies", gaps)
        for joined, gaps in forms
        if len(joined) >= 3 and joined.endswith("y") and joined[-2] not in "aeiouy"
    ]
    return list(dict.fromkeys(forms))


def _name_form(term: str) -> tuple[str, frozenset[int]] | None:
    """A client name's joined lower-case form and the offsets between its words."""
    folded = "".join(ch for ch in _fold_term(term) if ch not in _APOSTROPHES).strip(" .")
    words: list[str] = []
    for chunk in _SPLIT_NAME.split(folded):
        words.extend(part for part in _CAMEL.split(chunk) if part)
    if not words:
        return None
    gaps: set[int] = set()
    offset = 0
    for word in words[:-1]:
        offset += len(word)
        gaps.add(offset)
    joined = "".join(words).lower()
    return (joined, frozenset(gaps)) if len(joined) >= 2 else None


def _identifier_forms(term: ClientTerm) -> list[str]:
    """An identifier's lower-case forms: as given, without quotes; a repository also by its own name."""
    folded = _fold_term(term.term).lower()
    folded = re.sub(r"[`\"]", "", folded)
    folded = re.sub(r"['\[\]]?\.['\[\]]?", ".", folded).strip("'[] ")
    forms = [folded] if len(folded) >= 2 else []
    if term.kind == "repository":
        folded = re.sub(r"^(?:https?://)?(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org)/", "", folded)
        folded = folded.removesuffix(".git")
        forms.append(folded)
        last = folded.rsplit("/", 1)[-1]
        # "org/acme-dbt" is also written "acme-dbt"; a bare "org/dbt" is too plain to stand alone.
        if last != folded and len(last) >= 4 and ("-" in last or "_" in last):
            forms.append(last)
    if term.kind != "project key":
        # An identifier's words may be joined by "-", "_" or nothing ("acme_raw", "acme-raw", "acmeraw").
        for form in list(forms):
            forms += [form.replace("_", "-"), form.replace("-", "_")]
            squeezed = re.sub(r"(?<=[a-z0-9])[_\-](?=[a-z0-9])", "", form)
            if len(squeezed.replace(".", "").replace("/", "")) >= 5:
                forms.append(squeezed)
    return [f for f in dict.fromkeys(forms) if len(f) >= 2]


def _collapse_letter_runs(text: str) -> tuple[int, str] | None:
    """The text with every run of single letters joined ("A C M E Labs" -> "ACME Labs"), if it has one.

    Returns where the first run starts and the joined text, or None when no run is there.
    """
    first = None
    pieces = []
    pos = 0
    for m in _LETTER_RUN.finditer(text):
        if first is None:
            first = m.start()
        pieces += [text[pos : m.start()], m.group(0).replace(m.group("sep"), "")]
        pos = m.end()
    if first is None:
        return None
    pieces.append(text[pos:])
    return first, "".join(pieces)


def _base64_texts(text: str) -> list[tuple[int, str]]:
    """Each token of ``text`` that decodes from base64 to printable text, with where it starts."""
    out = []
    for m in _BASE64_TOKEN.finditer(text):
        token = m.group(0)
        if token.isalpha() and (token.islower() or token.isupper() or token.istitle()):
            continue  # a plain word, not an encoding
        body = token.rstrip("=")
        if len(body) % 4 == 1:
            continue
        padded = body + "=" * (-len(body) % 4)
        try:
            raw = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
            decoded = raw.decode("utf-8")
        except (binascii.Error, ValueError):
            continue
        # Printable, and mostly letters and spaces: text that was encoded, not bytes that happen to decode.
        if (
            decoded
            and all(ch.isprintable() or ch.isspace() for ch in decoded)
            and sum(ch.isalpha() or ch.isspace() for ch in decoded) >= 0.6 * len(decoded)
        ):
            out.append((m.start(), decoded))
    return out


class ClientDetailMatcher:
    """Finds client detail in texts; build once per registry, scan many texts."""

    def __init__(self, terms: Iterable[ClientTerm]) -> None:
        names: dict[str, list[_Entry]] = {}
        identifiers: dict[str, list[_Entry]] = {}
        for term in terms:
            if not term.term or not term.term.strip():
                continue
            if term.kind in _NAME_KINDS:
                for joined, gaps in _name_forms(term.term):
                    names.setdefault(joined, []).append(
                        _Entry(term, gaps, joined[0].isalnum(), joined[-1].isalnum())
                    )
            else:
                for form in _identifier_forms(term):
                    entry = _Entry(term, frozenset(), form[0].isalnum() or form[0] == "_",
                                   form[-1].isalnum() or form[-1] == "_")
                    identifiers.setdefault(form, []).append(entry)
        self._names = self._automaton(names)
        self._identifiers = self._automaton(identifiers)
        self.size = sum(len(v) for v in names.values()) + sum(len(v) for v in identifiers.values())

    @staticmethod
    def _automaton(forms: dict[str, list[_Entry]]) -> ahocorasick.Automaton | None:
        if not forms:
            return None
        automaton = ahocorasick.Automaton()
        for form, entries in forms.items():
            automaton.add_word(form, (len(form), tuple(entries)))
        automaton.make_automaton()
        return automaton

    def scan(self, text: str, own_client: str | None = None) -> list[ClientDetailFinding]:
        """Every registry term named in ``text``, each once, in order of first appearance.

        With ``own_client``, only other clients' terms, and none where the words matched, or words
        around them, name a term of ``own_client`` (its table ``x_mart.orders`` holds another
        client's dataset name ``x_mart``: it is still the own client's table).
        """
        if not text or (self._names is None and self._identifiers is None):
            return []
        found: dict[ClientDetailFinding, int] = {}
        self._scan_view(_View(text), found, own_client, offset=None)
        collapsed = _collapse_letter_runs(text)
        if collapsed is not None:
            self._scan_view(_View(collapsed[1]), found, own_client, offset=collapsed[0])
        for at, decoded in _base64_texts(text):
            self._scan_view(_View(decoded), found, own_client, offset=at)
        return sorted(found, key=lambda f: found[f])

    def _scan_view(
        self, view: _View, found: dict[ClientDetailFinding, int], own_client: str | None, offset: int | None
    ) -> None:
        """Add the findings of one view of a text; ``offset`` places a derived view's findings in the text."""
        matches: list[tuple[int, int, list[_Entry]]] = []  # clean start, clean end, entries that count
        if self._names is not None and view.names:
            for end, (length, entries) in self._names.iter(view.names):
                start = end - length + 1
                clean_start, clean_end = view.names_at[start], view.names_at[end]
                # Where, in the joined form, the text skipped a separator.
                skipped = {
                    k - start
                    for k in range(start + 1, end + 1)
                    if view.names_at[k] != view.names_at[k - 1] + 1
                    and not _APOSTROPHES.issuperset(view.clean[view.names_at[k - 1] + 1 : view.names_at[k]])
                }
                matched = [
                    entry
                    for entry in entries
                    if not (entry.edge_start and view.is_word(clean_start - 1, underscore=False))
                    and not (
                        entry.edge_end
                        and view.is_word(clean_end + 1, underscore=False)
                        and not view.ends_plural(clean_end)
                    )
                    and skipped <= entry.gaps
                ]
                if matched:
                    matches.append((clean_start, clean_end, matched))

        if self._identifiers is not None and view.clean:
            for end, (length, entries) in self._identifiers.iter(view.clean):
                start = end - length + 1
                matched = []
                for entry in entries:
                    if entry.term.kind == "project key":
                        if self._key_matches(view, start, end):
                            matched.append(entry)
                        continue
                    if entry.term.kind == "table" and "." not in entry.term.term:
                        # A bare name in the qualified-tables list counts only qualified ("raw.ledger"):
                        # bare table names count only where the registry marks them distinctive.
                        if start == 0 or view.clean[start - 1] != ".":
                            continue
                    if entry.edge_start and view.is_word(start - 1, underscore=True):
                        continue
                    if entry.edge_end and view.is_word(end + 1, underscore=True):
                        continue
                    matched.append(entry)
                if matched:
                    matches.append((start, end, matched))

        own_spans = []
        if own_client is not None:
            own_spans = [(s, e) for s, e, entries in matches if any(x.term.client == own_client for x in entries)]
        for start, end, entries in matches:
            if any(s <= start and end <= e for s, e in own_spans):
                continue  # these words are (inside) a term of the store's own client
            position = view.where[start] if offset is None else offset
            for entry in entries:
                term = entry.term
                finding = ClientDetailFinding(term.term, term.kind, term.client)
                if finding not in found or position < found[finding]:
                    found[finding] = position

    @staticmethod
    def _key_matches(view: _View, start: int, end: int) -> bool:
        """A Jira key counts as a ticket (KEY-123, any case) or alone in capitals (ACME, not "acme")."""
        if view.is_word(start - 1, underscore=False):
            return False
        after = end + 1
        if after + 1 < len(view.clean) and view.clean[after] in "-_" and view.clean[after + 1].isdigit():
            if view.clean[after] == "-":
                return True  # a ticket, in any case, also inside a branch name ("feature/acme-12-fix")
            # "ACME_12", or "feature/acme_12" in a branch name; "data_2024" alone is a table name.
            token_start = view.clean.rfind(" ", 0, start) + 1
            if "/" in view.clean[token_start:start] or all(c.isupper() for c in view.cased[start : end + 1] if c.isalpha()):
                return True
        if view.is_word(after, underscore=True):  # ACME_RAW is another word, not the key
            return False
        letters = [c for c in view.cased[start : end + 1] if c.isalpha()]
        return bool(letters) and all(c.isupper() for c in letters)
