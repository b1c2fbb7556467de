"""Text that reads as instructions to an agent (prompt injection), as opposed to a lesson.

A lesson may be written in the imperative ("Always run dbt build before opening a PR"): those are
steps about the work. What is refused is text that tries to change the behaviour, permissions,
oversight or process of the agent that will read it.

Two kinds of judgement, combined (a passage is refused when either speaks):

- signals that need no training (``instruction_signals``): role and system markers in any syntax,
  text addressed to the reader that gives it orders, the agent's instructions overridden, claims
  that QA, review or approval are off, orders to skip them, permissions granted, things hidden
  from people, data sent out, standing-decision or governance authority claimed; in English,
  German, French, Spanish, Italian, Portuguese, Dutch, Chinese and Japanese. Besides the phrasing
  patterns, ``instruction_concepts`` judges each sentence by what it touches (QA, review, approval,
  escalation, the console's checks, data, access), what it does to that (skips it, calls it not
  needed, sends it out, grants it, hides it) and who it is said to (the agent, or an imperative);
- a linear classifier over word and character n-grams (``instruction_model``), trained on public
  prompt-injection corpora, generated variants and the notes people wrote, scored per sentence and
  per pair of sentences, with a share of how the whole note reads.

A signal or a classifier passage inside a quotation, or in a sentence that reports an attempt ("a
ticket comment told agents to skip review; we did not follow it"), is a fact, not an order.

Hiding is itself a finding: invisible characters, hidden HTML, orders inside comments or
encodings (base64, hex, URL-encoding, rot13, HTML entities, look-alike letters, letters spelt out),
which are decoded and scanned again. Orders in file names are read as words and judged alike.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import codecs
import html
import itertools
import re
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass

from . import instruction_model, instruction_signals
from .instruction_signals import (
    ADDRESS,
    AUTHORITY,
    CHECKS_OFF,
    EXFIL,
    ORDER,
    OVERRIDE,
    PERMISSION,
    ROLE,
    SECRECY,
    SKIP_GATE,
)
from .instruction_text import INVISIBLE_RE as _INVISIBLE_RE
from .instruction_text import REPORTED_INVISIBLE_RE as _REPORTED_INVISIBLE
from .instruction_text import normalise as _normalise_line

__all__ = [
    "InstructionFinding", "scan", "classifier_passages", "INVISIBLE", "EXCERPT_MAX", "OVERRIDE", "ORDER", "ADDRESS", "ROLE", "SECRECY",
    "EXFIL", "AUTHORITY", "CHECKS_OFF", "SKIP_GATE", "PERMISSION", "CLASSIFIED", "FILE_NAME", "HIDDEN_COMMENT",
    "HIDDEN_TEXT", "ENCODED",
]


@dataclass(frozen=True)
class InstructionFinding:
    """One passage that reads as instructions to an agent: what, where, and the words that tipped it."""

    kind: str
    line: int
    excerpt: str
    why: str = ""


CLASSIFIED = "reads as orders to the agent reading the note"
FILE_NAME = "a file name that gives orders"
HIDDEN_COMMENT = "instructions in a hidden comment"
HIDDEN_TEXT = "hidden text"
INVISIBLE = "invisible characters"
ENCODED = "encoded instructions"

EXCERPT_MAX = 80
MAX_DEPTH = 2  # decoded text is scanned again, but an encoding of an encoding of ... stops here

_ROT13_HINT = re.compile(
    r"\b(?:gur|lbh|lbhe|nyy|vtaber|cerivbhf|vafgehpgvbaf|naq|guvf|abgr|cebzcg|ehyrf|bire|sbe|gb|bs|zhfg|abj|zrzbel|fgnaqvat)\b"
)
_LEETISH = re.compile(r"[a-z][0-9@$]|[0-9@$][a-z]")
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"})

# A comment counts when it speaks to its reader or about an agent's orders, not when it is a build
# marker or a note such as "<!-- reviewed by the QA agent in May -->".
_CUES = re.compile(
    r"\b(?:you|your|yourself|assistant|ai|llm|claude|gpt|chatgpt|instructions?|prompt|ignore|disregard|"
    r"obey|comply|pretend|act\s+as|reveal|override|bypass|standing\s+decisions?|governance|do\s+not\s+tell)\b"
)
_COMMENT = re.compile(r"<!--(.*?)(?:-->|\Z)", re.DOTALL)
_FENCE = re.compile(r"^[ \t]{0,3}(?:```|~~~)", re.MULTILINE)
_MD_COMMENT = re.compile(r"^[ \t]*\[(?://|comment|_|#|hidden|note)\]:[ \t]*(?:#|<>|<#>)[ \t]*[(\"'](.*)[)\"'][ \t]*$", re.M | re.I)
_HIDDEN_HTML = re.compile(
    r"<(\w+)[^<>]*?(?:style\s*=\s*[\"'][^\"']*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0|"
    r"opacity\s*:\s*0(?:\.0+)?\s*(?:;|[\"'])|color\s*:\s*(?:white|#fff\b|#ffffff|transparent)|height\s*:\s*0|"
    r"width\s*:\s*0|left\s*:\s*-\d{3,}|text-indent\s*:\s*-\d{3,})[^\"']*[\"']|\shidden(?:\s*=\s*[\"']?[^\"'\s>]*[\"']?)?"
    r"(?=[\s/>])|aria-hidden\s*=\s*[\"']true[\"'])[^<>]*>(.*?)(?:</\1\s*>|\Z)",
    re.IGNORECASE | re.DOTALL,
)
_B64 = re.compile(r"(?<![A-Za-z0-9+/=_\-])[A-Za-z0-9+/_\-]{16,}={0,2}(?![A-Za-z0-9+/=_\-])")
_HEX = re.compile(r"(?<![0-9A-Fa-f])(?:(?:\\x|0x)?[0-9A-Fa-f]{2}[ :,\-]?){10,}(?![0-9A-Fa-f])")
# What every match of ``_HEX`` is: a run of 20 characters or more, each a hex digit, a separator or part of
# "\\x" or "0x" (a cheap search that opens with a set of characters, so most of a text is skipped at once).
_HEX_RUN = re.compile(r"[0-9A-Fa-f :,\-x\\]{20}")
_URLENC = re.compile(r"(?:[^\s%]{0,16}%[0-9A-Fa-f]{2}){2,}[^\s%]*")
_UNICODE_ESC = re.compile(r"(?:\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}){4,}")
# A file name or path of words joined by hyphens or underscores ("skip-qa-and-merge.md").
_FILE_NAME = re.compile(r"(?<![\w@])(?:[\w.~]*/)*[a-z0-9]+(?:[-_][a-z0-9]+){2,}(?:\.[a-z0-9]{1,5})?(?![\w@])", re.I)
_NAME_SEPARATORS = re.compile(r"[/_\-.]+")
# What every such name holds: two separators with a word between (a cheap search that opens with a separator).
_TWO_SEPARATORS = re.compile(r"[-_][a-z0-9]+[-_]", re.I)


def _excerpt(line: str, near: float = 0.0) -> str:
    """At most EXCERPT_MAX characters of the original line, around the relative position ``near``."""
    visible = "".join(ch if ch.isprintable() else " " for ch in _INVISIBLE_RE.sub("", line)).strip()
    visible = " ".join(visible.split())
    if len(visible) <= EXCERPT_MAX:
        return visible
    width = EXCERPT_MAX - 2  # room for an ellipsis at either end
    start = max(0, min(int(near * len(visible)) - width // 4, len(visible) - width))
    cut = visible[start : start + width]
    return ("…" if start > 0 else "") + cut + ("…" if start + width < len(visible) else "")


_FENCE_LINE = re.compile(r"^\s{0,3}(?:```|~~~)")
_BLOCK_START = re.compile(r"^\s*(?:#|[-*+>|]|\d+[.)]\s|```|~~~|<)")


def _normalised_lines(lines: list[str]) -> list[str]:
    """Each line normalised, as ``normalise`` does line by line.

    Normalised in one pass when no step can change a line break: every step of ``normalise`` works within a
    line (and on an ASCII line the steps for other scripts change nothing), except decoding HTML entities,
    which may make one ("&#10;"). A text with an "&" is normalised line by line.
    """
    if len(lines) > 1 and not any("&" in line for line in lines):
        whole = _normalise_line("\n".join(lines)).split("\n")
        if len(whole) == len(lines):
            return whole
    return [_normalise_line(line) for line in lines]


class _Doc:
    """A text's lines, normalised and joined, with a way back from an offset to the line."""

    def __init__(self, text: str) -> None:
        self.original = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        self.lines = _normalised_lines(self.original)
        self.text = "\n".join(self.lines)
        self.starts: list[int] = []
        pos = 0
        for line in self.lines:
            self.starts.append(pos)
            pos += len(line) + 1
        # The same text with a paragraph's wrapped lines joined by spaces (same length, same offsets):
        # sentences are judged whole, and headings, list items, table rows and code stay lines of their own.
        joined = list(self.text)
        fenced = False
        for i, line in enumerate(self.lines[:-1]):
            if _FENCE_LINE.match(line):
                fenced = not fenced
            nxt = self.lines[i + 1]
            if (not fenced and line.strip() and nxt.strip() and not _BLOCK_START.match(nxt)
                    and not _BLOCK_START.match(line)):
                joined[self.starts[i + 1] - 1] = " "
        self.joined = "".join(joined)

    def locate(self, offset: int) -> tuple[int, float]:
        """1-based line number of ``offset`` and its relative position in that line."""
        index = bisect.bisect_right(self.starts, offset) - 1
        return index + 1, (offset - self.starts[index]) / max(1, len(self.lines[index]))


def _judged(text: str, model: instruction_model.Model, note: bool = True) -> Iterable[tuple[str, int, str]]:
    """(kind, offset, why) for every signal and every passage the classifier refuses, in a normalised text
    (``note=False``: a text that is not a note, such as a list of file names, gets no share of the note model)."""
    for signal in instruction_signals.sentence_signals(text):
        if not _reported(text, signal.start):
            yield signal.kind, signal.start, ""
    for start, score, feats in instruction_model.scored(model, text, note)[0]:
        # A quoted or reported attempt is judged as the signals are: described, not given.
        ok = score >= model.strong or score >= model.threshold and _speaks_to_reader(text, start)
        if ok and not _reported(text, start):
            yield CLASSIFIED, start, ", ".join(f"'{w}'" for w in model.top_words(feats))


def classifier_passages(text: str, model: instruction_model.Model) -> list[tuple[float, bool]]:
    """(logit, speaks to its reader) of each passage of ``text`` the classifier judges, quotations and
    reports left out: what the thresholds act on. The training script chooses them with it."""
    joined = _Doc(text).joined
    return [(score, _speaks_to_reader(joined, start)) for start, score, _feats in instruction_model.passages(model, joined)
            if not _reported(joined, start)]


# What an order or an address to the reader needs at least one of: the second person, an agent or its
# instructions named, a modal or an imperative opening a clause. A passage that only describes the work
# ("no reliable merge key has been found yet") is a lesson, however its words weigh.
_READER_CUE = re.compile(
    r"\b(?:you|your|yours|yourself|assistant|assistants|agent|agents|ai|model|llm|bot|chatgpt|claude|gpt|dan|system|"
    r"instructions?|prompts?|rules|guidelines|please|must|should|shall|never|always|do not|ignore|forget|disregard|"
    r"pretend|obey|dein|deine|dich|dir|tu|tes|ton|vous|votre|usted|tus|bitte|por favor)\b|你|您|あなた|君|请|してください|こと|"
    # The same cues in the other languages notes arrive in: the second person, "please", "must", "always",
    # "never" and "agent" (written as normalised text is: lower case, accents dropped).
    + _normalise_line(
        r"\b(?:musst|muss|immer|niemals|doit|dois|devez|toujours|jamais|veuillez|merci de|debes|debe|siempre|nunca|"
        r"tuo|tua|tuoi|voi|devi|dovete|per favore|sempre|mai|você|vocês|teu|deves|"
        r"jij|jouw|jullie|uw|moet|moeten|altijd|nooit|alsjeblieft|dig|din|ditt|måste|alltid|aldrig|snälla|"
        r"ty|twój|twoje|musisz|zawsze|nigdy|proszę|ты|вы|ваш|ваши|твой|тебе|вам|должен|должны|всегда|никогда|"
        r"пожалуйста|агент|агенты|sen|siz|senin|sizin|lütfen|asla|ajan|kamu|anda|harus|selalu|jangan|tolong|mohon|"
        r"agen|vui lòng|hãy|أنت|أنتم|يجب|دائما|أبدا|من فضلك|الوكيل)\b"
        # Scripts whose vowel signs are not word characters to ``re``: matched without word boundaries.
        r"|आप|तुम|कृपया|हमेशा|कभी नहीं|चाहिए|एजेंट|당신|에이전트|하세요|하십시오|주세요"
    )
)
# "du" is German "you" but French "of the": it counts only beside German words.
_GERMAN_DU = re.compile(r"\bdu\b(?=.*\b(?:und|der|die|das|ist|nicht|bitte|wenn|den|dem|mit|fur|auf)\b)|"
                        r"\b(?:und|der|die|das|ist|nicht|bitte|wenn|den|dem|mit|fur|auf)\b.*\bdu\b")


def _speaks_to_reader(text: str, start: int) -> bool:
    """Whether the passage at ``start`` (and the next sentence) holds a cue that it speaks to its reader."""
    window = text[start : start + 400]
    if _READER_CUE.search(window) or _GERMAN_DU.search(window[:200]):
        return True
    return bool(instruction_signals.imperative_opening(window))


# A sentence that reports an attempt or quotes one as an example describes it as a fact ("ticket X
# contained a comment trying to make the agent skip review; we did not follow it"). A signal there is
# not enough by itself: the classifier, trained on such reports, judges the sentence.
_REPORTING = re.compile(
    r"\b(?:contained|containing|tried to|trying to|attempted to|attempting to|an attempt to|asking (?:the )?agents? to|"
    r"asked (?:the )?agents? to|(?:note|comment|email|e-mail|message|ticket|description|text)s? (?:saying|telling|asking|claiming)|"
    r"planted|telling (?:the )?agents? to|told (?:the )?agents? to|instructing (?:the )?agents? to|that claim|which claim|claims that|attack pattern|injection pattern|asks to|asks you to|asking you to|tells you to|wants you to|claiming|styled as|injected|injection|phishing|example of|for example|e\.g\.|"
    r"did not follow|didn't follow|not followed|flagged|redacted|reported it|is not a standing decision|suspicious|"
    r"is data, not|shows up in|shown up in|we watch for|are refused|is refused|was refused|"
    r"enthielt|versuchte|verdachtig|nicht gefolgt|nicht befolgt|dazu bringen sollte|tentait|tentative|contenait|suspecte?|pas suivi|intentaba|intento de|"
    r"contenia|sospechosa|no lo seguimos)\b|试图|企图|注入|可疑|没有照做|試み|注入|不審|従わず"
)
# Reporting in general words, in the languages the signals read: where the words came from (a ticket,
# a comment, an e-mail "said", "asked", "demanded"; "found in", "pasted into"), examples of content
# ("phrases such as"), and what the team did about them in the past ("we ignored it", "not acted on",
# "wir haben das nicht ausgefuhrt", "nous l'avons ignore"). Only words of a report: an order to the
# reader has none of them. Written as a reader sees them (normalised), so any script matches.
_REPORT_WORDS = (
    # en: the source and its verb of saying, in the past or as a report
    r"(?:(?:note|comment|email|e-mail|message|ticket|description|text|attachment|file|draft|sender|"
    r"form|string|snippet)s? (?:said|stated|asked|demanded|requested|"
    r"wanted|claimed|told|instructed|urged|decoded to)|told (?:the )?(?:agents?|assistants?|us|the team)|"
    r"found in|turned up in|showed up in|appeared in|pasted|was posted|were posted|decoded to|decodes to|"
    r"phrases? (?:like|such as)|sentences? (?:like|such as)|text (?:like|such as)|"
    r"we (?:ignored|declined|refused|rejected|did not act|did not do|did not apply|did not run|did not reword|left it)|"
    r"ignored it|not acted on|did not act on|treated (?:it|them|the \w+) (?:normally|as (?:data|text|content|input))|"
    r"normal process|quoted|quote from|(?:was|were) attempted|fake|forged|spoofed|"
    # de
    r"forderte|verlangte|behauptete|stand (?:in|im|da|dort)|zitat|eingeschleust\w*|wir haben (?:das|es|sie|ihn|den \w+) "
    r"(?:ignoriert|nicht)|nicht ausgefuhrt|nicht umgesetzt|satze wie|"
    # fr
    r"demandait|exigeait|pretendait|disait|citation|nous l'avons|nous ne l'avons|nous avons ignore|phrases comme|"
    # es / it / pt
    r"pedia|exigia|decia|afirmaba|lo ignoramos|lo hemos ignorado|no lo ejecutamos|frases como|"
    r"chiedeva|diceva|conteneva|l'abbiamo|non l'abbiamo|frasi come|dizia|continha|nao seguimos|ignoramos|"
    # nl / sv / pl
    r"stond in|stond er|vroeg om|eiste|beweerde|bevatte|we hebben (?:het|dit|dat) (?:genegeerd|niet)|niet opgevolgd|zinnen als|"
    r"inneholl|stod det|pastod|vi foljde|vi ignorerade|meningar som|"
    r"zawieral\w*|prosil\w*|zadal\w*|twierdzil\w*|zignorowalismy|nie wykonalismy|"
    # ru / uk / tr / id / vi (as the normaliser folds them)
    + _normalise_line("содержал\\w*|просил\\w*|требовал\\w*|мы проигнорировали|не выполнили|") +
    r"iceriyordu|istiyordu|yok saydik|uygulamadik|"
    r"berisi|meminta|kami abaikan|kami mengabaikan|tidak kami jalankan|"
    r"chung toi da bo qua|khong lam theo|chung toi khong"
    r")"
)
_REPORTED_WORDS = re.compile(r"(?<![\w])" + _REPORT_WORDS + r"(?![\w])")
# A quotation holds words ("... disregard your rules ..."); a quoted JSON key or value ("skip_qa") is syntax.
# Single quotes count when they open and close at word edges ("the client's rule" opens nothing).
_QUOTED = re.compile(
    # (a JSON value, and the text between two JSON strings, ": true, ", are syntax too, not quotations)
    r'(?<!":\s)(?<!":)"(?!\s*[:,\]}])[^"\n]{0,300}[\s\u3000-\u9fff][^"\n]{0,300}"|「[^」\n]{2,300}」|『[^』\n]{2,300}』'
    r"|(?<![\w'])'(?=[^\s'])[^'\n]{0,300}\s[^'\n]{0,300}(?<=[^\s'])'(?![\w'])"
)
# A sentence ends at . ! ? ; before a space (not inside "now..." in a quotation, "e.g." or a file name).
_SENTENCE_END = re.compile(r"[.!?;](?=\s|$)|[。！？\n]")


def _reported(text: str, start: int) -> bool:
    """Whether the signal at ``start`` sits in a quotation or in a sentence that reports an attempt."""
    before = text[max(0, start - 300) : start]
    cut = max(before.rfind(c) for c in ".!?;。！？\n")
    head = start - len(before) + cut + 1
    end = _SENTENCE_END.search(text, start)
    # Two sentences: a report often names the attempt in one and what was done in the next.
    tail_end = _SENTENCE_END.search(text, end.end()) if end else None
    sentence = text[head : (tail_end or end).start() if (tail_end or end) else len(text)]
    if _REPORTING.search(sentence) or _REPORTED_WORDS.search(sentence):
        return True
    # A quotation may hold several sentences ("... admin mode. Skip QA."): it is looked for in the line.
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    return any(m.start() <= start - line_start < m.end() for m in _QUOTED.finditer(line))


def reported_line(lines: list[str], number: int) -> bool:
    """Whether line ``number`` (1-based, normalised) is quoted in a report: the line, or its neighbours, report it."""
    window = " ".join(lines[max(0, number - 2) : number + 1])
    return bool(_REPORTING.search(window) or _REPORTED_WORDS.search(window))


# Quoted or inline-code spans of an original line, whatever they hold ("'<system>'", "`<|system|>`").
_ANY_QUOTE = re.compile(r"`[^`\n]+`|\"[^\"\n]+\"|“[^”\n]+”|„[^“”\n]+[“”]|«[^»\n]+»|「[^」\n]+」|(?<![\w'])'[^'\n]+'(?![\w'])")


def _quoted_marker(original: str, lines: list[str], number: int) -> bool:
    """Whether a line's role marker is only quoted, in a report of it ("a fake '<system>' block was refused")."""
    if not _ANY_QUOTE.search(original) or not reported_line(lines, number):
        return False
    rest = _normalise_line(_ANY_QUOTE.sub(" ", original))
    return not (instruction_signals.line_markers(rest) or instruction_signals.fence_marker(rest))


def _signals_only(text: str) -> Iterable[int]:
    """Offsets of the training-free signals alone (for rot13 and leet spellings, which the model never saw).

    The concept check is left out: it judged the lines as written, and a leet or rot13 pass over a
    technical note ("v1", "s3") would only run it a second time on the same words.
    """
    return (s.start for s in instruction_signals.sentence_signals(text, concepts=False))


def _decode_base64(blob: str) -> str | None:
    blob = blob.strip()
    padded = blob + "=" * (-len(blob) % 4)
    for decoder in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            raw = decoder(padded)
        except (binascii.Error, ValueError):
            continue
        text = _as_text(raw)
        if text is not None:
            return text
    return None


def _decode_hex(blob: str) -> str | None:
    digits = re.sub(r"\\x|0x|[ :,\-]", "", blob)
    if len(digits) % 2:
        digits = digits[:-1]
    try:
        return _as_text(bytes.fromhex(digits))
    except ValueError:
        return None


def _may_hold_encoding(text: str) -> bool:
    """Whether some line of ``text`` may hold what ``_decodings`` decodes: its searches over the whole
    text at once, which find a match wherever a line has one (no match spans a line break, and a line
    break stands for a line's start or end in every look-around), so a plain note is not searched
    line by line."""
    text = _INVISIBLE_RE.sub("", text)
    return "%" in text or "\\u" in text or "\\U" in text or bool(
        _B64.search(text) or _HEX_RUN.search(text) and _HEX.search(text))


_NESTED_BLOB = re.compile(r"[A-Za-z0-9+/_\-]{16,}={0,2}|(?:[0-9A-Fa-f]{2}){10,}|(?:%[0-9A-Fa-f]{2}){4,}")


def _as_text(raw: bytes) -> str | None:
    """Decoded bytes, if they are readable text with words in it (or another encoding, to decode again)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(text) < 8:
        return None
    if _NESTED_BLOB.fullmatch(text.strip()):
        return text.strip()  # an encoding of an encoding: scanned again, which decodes it once more
    printable = sum(1 for c in text if c.isprintable() or c in "\n\t")
    if printable / len(text) < 0.9 or " " not in text or sum(c.isalpha() for c in text) < len(text) * 0.5:
        return None
    return text


def _decodings(line: str) -> Iterable[str]:
    """Readable texts hidden in a line as base64, hex, URL-encoding or escaped Unicode."""
    for m in _B64.finditer(line):
        blob = m.group(0)
        if len(blob) >= 16 and not blob.isalpha() or len(blob) >= 24:
            decoded = _decode_base64(blob)
            if decoded:
                yield decoded
    for m in _HEX.finditer(line):
        decoded = _decode_hex(m.group(0))
        if decoded:
            yield decoded
    if "%" in line:
        for m in _URLENC.finditer(line):
            decoded = urllib.parse.unquote(m.group(0).replace("+", " "))
            if decoded != m.group(0):
                yield decoded
    if "\\u" in line or "\\U" in line:
        for m in _UNICODE_ESC.finditer(line):
            try:
                yield m.group(0).encode("ascii").decode("unicode_escape")
            except UnicodeDecodeError:
                continue




def _scan(text: str, depth: int, model: instruction_model.Model) -> list[InstructionFinding]:
    findings: dict[tuple[str, int], InstructionFinding] = {}

    def add(kind: str, line: int, excerpt_source: str, near: float = 0.0, why: str = "") -> None:
        key = (kind, line)
        if key not in findings:
            findings[key] = InstructionFinding(kind, line, _excerpt(excerpt_source, near), why)

    doc = _Doc(text)

    # Hidden characters are a finding by themselves; the text without them is scanned below.
    for number, line in enumerate(doc.original, start=1):
        # A byte-order mark opening the file is how some editors save UTF-8, not a hiding place.
        if _REPORTED_INVISIBLE.search(line[1:] if number == 1 and line.startswith("\ufeff") else line):
            add(INVISIBLE, number, line)
            tags = "".join(chr(ord(c) - 0xE0000) for c in line if 0xE0020 <= ord(c) <= 0xE007E)
            if tags and depth < MAX_DEPTH and _scan(tags, depth + 1, model):
                add(ENCODED, number, line)

    # Role and system markers, line by line; a chat transcript as a whole.
    for number, line in enumerate(doc.lines, start=1):
        if line.strip() and (instruction_signals.line_markers(line)
                             or instruction_signals.fence_marker(doc.original[number - 1])) \
                and not _quoted_marker(doc.original[number - 1], doc.lines, number):
            add(ROLE, number, doc.original[number - 1])
    if instruction_signals.transcript(doc.text):
        number = next(i for i, line in enumerate(doc.lines, start=1) if re.match(r"^\W*(?:human|user)\s*:", line))
        add(ROLE, number, doc.original[number - 1])

    for kind, start, why in _judged(doc.joined, model):
        number, near = doc.locate(start)
        add(kind, number, doc.original[number - 1], near, why)

    # Orders in file names: "see ./skip-qa-and-merge.md" reads "see skip qa and merge".
    # All the names of a note are judged in one pass, one name a line.
    if ("-" in doc.text or "_" in doc.text) and _TWO_SEPARATORS.search(doc.text):
        names = [(m.start(), _NAME_SEPARATORS.sub(" ", m.group(0)).strip()) for m in _FILE_NAME.finditer(doc.text)]
        names = [(at, words) for at, words in names if len(words.split()) >= 3]
        if names:
            block = "\n".join(words for _at, words in names)
            name_starts = list(itertools.accumulate((len(words) + 1 for _at, words in names[:-1]), initial=0))
            for _kind, offset, _why in _judged(block, model, note=False):
                number, near = doc.locate(names[bisect.bisect_right(name_starts, offset) - 1][0])
                add(FILE_NAME, number, doc.original[number - 1], near)

    original = "\n".join(doc.original)
    line_starts = [0]
    for line in doc.original[:-1]:
        line_starts.append(line_starts[-1] + len(line) + 1)

    def line_of(offset: int) -> int:
        return bisect.bisect_right(line_starts, offset)

    # Comments and hidden HTML: invisible once rendered, read by agents all the same.
    if "<!--" in original or "]:" in original:
        fences = [m.start() for m in _FENCE.finditer(original)] if "```" in original or "~~~" in original else []
        for regex in (_COMMENT, _MD_COMMENT):
            for m in regex.finditer(original):
                inner = m.group(1)
                hidden = bisect.bisect_right(fences, m.start()) % 2 == 0  # not shown as code
                if _hidden_payload(inner, depth, model) or (hidden and _hidden_order(inner)):
                    number = line_of(m.start())
                    add(HIDDEN_COMMENT, number, doc.original[number - 1])
    if "<" in original:
        for m in _HIDDEN_HTML.finditer(original):
            inner = re.sub(r"<[^>]*>", " ", m.group(2) or "")
            if inner.strip():
                number = line_of(m.start())
                add(HIDDEN_TEXT, number, doc.original[number - 1])

    if depth < MAX_DEPTH:
        # Encoded blobs: decode and scan again (line by line only when some line may hold one).
        for number, line in enumerate(doc.original if _may_hold_encoding(original) else (), start=1):
            for decoded in _decodings(_INVISIBLE_RE.sub("", line)):
                if _scan(decoded, depth + 1, model):
                    add(ENCODED, number, line)
                    break
        if depth == 0:
            # rot13 and leet-speak spellings of the same orders, on lines not already refused.
            seen_lines = {line for _kind, line in findings}
            # Leet-speak only on lines that mix digits into words, so the pass stays cheap.
            # Left-out lines become spaces of the same length, so offsets still find their line.
            leet = "\n".join(line.translate(_LEET) if _LEETISH.search(line) else " " * len(line) for line in doc.lines)
            # rot13 only on lines that hold rot13 spellings of common words ("gur", "lbh", "nyy"): cheap to tell.
            rot13 = "\n".join(codecs.encode(line, "rot13") if _ROT13_HINT.search(line) else " " * len(line)
                               for line in doc.lines)
            for variant in (rot13, leet):
                if variant == doc.text or not variant.strip():
                    continue
                for start in _signals_only(variant):
                    if _reported(variant, start):
                        continue  # a report of an encoded attempt, respelled, is still a report
                    number, near = doc.locate(start)
                    if number not in seen_lines:
                        add(ENCODED, number, doc.original[number - 1], near)
            # Words spelt out letter by letter ("i g n o r e", "i.g.n.o.r.e") or cut by hyphens
            # ("ig-nore all pre-vious in-structions"), on the few lines that have them.
            for number, line in enumerate(doc.original if _may_squeeze(original) else (), start=1):
                if number in seen_lines:
                    continue
                squeezed = _squeezed(line)
                if squeezed is not None and any(not _reported(squeezed, at) for at in _signals_only(squeezed)):
                    add(ENCODED, number, line)

    # By line; on a line, what a signal says first (it names what the passage does), the classifier last.
    return sorted(findings.values(), key=lambda f: (f.line, f.kind == CLASSIFIED, f.kind))


_SPELLED_OUT = re.compile(r"(?<![\w.\-])(?:[A-Za-z][ .\-_*·•]){1,}[A-Za-z](?![\w\-])")
# What every match of ``_SPELLED_OUT`` opens with: a letter that no word character, "." or "-" precedes, a
# separator, and a letter followed by a separator or by no word character. Written to open with the separator,
# so a search skips at once the characters that are none.
_SPELLED_PAIR = re.compile(r"[ .\-_*·•](?<=[A-Za-z].)(?<![\w.\-]..)[A-Za-z](?![^\W_])")
_HYPHENATED = re.compile(r"\b[A-Za-z]+(?:-[A-Za-z]+)+\b")
# Words that matter to the orders this module looks for; a hyphen inside one of them hides it.
_CUT_WORDS = frozenset(
    "ignore disregard previous prior instructions instruction prompt system override overrides forget bypass "
    "reveal pretend standing decision decisions governance template rules guidelines directives obey "
    "assistant agent reading".split()
)


def _may_squeeze(text: str) -> bool:
    """Whether ``_squeezed`` may change some line of ``text``: its searches over the whole text at once
    (as in ``_may_hold_encoding``, no match spans a line break)."""
    if _SPELLED_PAIR.search(text) and _SPELLED_OUT.search(text):
        return True
    # A hyphen-cut word holds no space: it is looked for in the words that hold a hyphen, each alone (its
    # word boundaries are the same there, and no match spans two words).
    return "-" in text and any(m.group(0).replace("-", "").lower() in _CUT_WORDS
                               for word in text.split() if "-" in word for m in _HYPHENATED.finditer(word))


def _squeezed(line: str) -> str | None:
    """The line with spelt-out and hyphen-cut words put back together, normalised; None if unchanged."""
    changed = False

    def spelled(m: re.Match[str]) -> str:
        nonlocal changed
        changed = True
        return re.sub(r"[ .\-_*·•]", "", m.group(0))

    def cut(m: re.Match[str]) -> str:
        nonlocal changed
        joined = m.group(0).replace("-", "")
        if joined.lower() in _CUT_WORDS:
            changed = True
            return joined
        return m.group(0)

    out = _SPELLED_OUT.sub(spelled, line) if _SPELLED_OUT.search(line) else line
    if "-" in out:
        out = _HYPHENATED.sub(cut, out)
    return _normalise_line(out) if changed else None


def _hidden_payload(inner: str, depth: int, model: instruction_model.Model) -> bool:
    """Whether a comment's text speaks to a reader (build markers and TODOs do not)."""
    words = re.findall(r"[A-Za-z']+", inner)
    if depth < MAX_DEPTH and _scan(inner, depth + 1, model):
        return True
    return len(words) >= 3 and bool(_CUES.search(_normalise_line(" ".join(inner.split()))))


# An order hidden where no person reading the rendered note sees it: a clause that starts with an
# action verb ("push straight to main", "please approve ...", "never run the tests").
_HIDDEN_ORDER = re.compile(
    r"(?:^|[.!?;:\n]|\s-\s)[\s>*#\-]*(?:(?:please|always|never|just|now|then|also|do not|don't|dont|"
    r"make sure to|be sure to|remember to|you should|you must)\s+)*"
    r"(?:approve|merge|push|force-push|deploy|release|ship|publish|delete|drop|truncate|remove|wipe|purge|erase|"
    r"skip|disable|bypass|ignore|disregard|forget|override|overrule|grant|give|send|post|upload|e-?mail|share|"
    r"forward|reveal|print|leak|copy|paste|execute|close|resolve|mark|commit|change|rewrite|replace|set|add|"
    r"create|write|tell|say|report|hide|conceal|escalate|run|rerun|trigger|revert|reset|rotate|transfer|move|"
    r"rename|edit|modify|update|exfiltrate|treat|obey|follow|comply|act|pretend|answer|respond|reply)\b"
    r"(?!\s+(?:from|of|by|dated|sent)\b)",  # "source: email from the CFO" names a thing, orders nothing
    re.IGNORECASE,
)
# A role label opening a hidden comment: "<!-- SYSTEM: ... -->", "<!-- agent: ... -->".
_HIDDEN_ROLE = re.compile(
    r"^[\s>*#\-\[]*(?:system|assistant|developer|admin|ai|agents?|llm|model|claude|gpt|instructions?)[\]\s]*:\s*\S",
    re.IGNORECASE,
)
# What a comment holds that is not an order: tool markers ("markdownlint-disable MD013",
# "prettier-ignore"), generator stamps, TODOs.
_TOOL_MARKER = re.compile(r"^\s*(?:[\w.]+-(?:disable|enable|ignore)[\w-]*|todo|fixme|xxx|generated by)\b", re.I)


def _hidden_order(inner: str) -> bool:
    """Whether a hidden comment gives an order (an imperative clause), not a marker or a remark."""
    text = " ".join(html.unescape(_INVISIBLE_RE.sub("", inner)).split())
    if not text or _TOOL_MARKER.match(text):
        return False
    return bool(_HIDDEN_ROLE.match(text) or _HIDDEN_ORDER.search(text))




def scan(text: str, model: instruction_model.Model | None = None) -> list[InstructionFinding]:
    """Every passage of ``text`` that reads as instructions to an agent, by line.

    ``model`` is the committed classifier unless given (the training script passes the model of a
    development fold, to measure the whole check on families that model never saw).
    """
    if not text:
        return []
    return _scan(text, 0, model or instruction_model.load())
