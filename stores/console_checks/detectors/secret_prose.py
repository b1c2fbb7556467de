"""Credentials written in prose, in English, German, French and Spanish.

A value counts when it has the shape of a credential (``secret_values``) and stands in a
credential context. The contexts form a small grammar, not a list of sentences:

- **after a credential noun**: ``NOUN [for/für/pour/para WHO] [encoding] COPULA VALUE``, where the
  copula is ``:``, ``=``, "is", "ist", "lautet", "est", "es"...; a value written right after the
  noun ("with password X") must have a stronger shape. Token nouns ("API key", "token", "bearer",
  "jeton", "API-Schlüssel") take a high-entropy hex or base64 run as well.
- **what a login takes**: a login verb ("log in", "anmelden", "se connecter", "iniciar sesión")
  followed on its line by "with/using/mit/avec/con VALUE".
- **what a thing opens with**: a login, an archive, a keystore, a vault, a prompt... that "takes",
  "opens with", "wants", "accepts" (and their German, French and Spanish forms) a VALUE; a VALUE
  one is told to type or enter at a prompt.
- **a pair**: ``user / value`` or ``user, value``, where the user is an e-mail address, or an
  account name on a line (or below a line) that speaks of logging in.
- **halves to join**: fragments in a paragraph that names a credential and says to join its parts,
  scored once joined.

A value wrapped across a line break is joined with the start of the next line before it is scored.
Every function here works on the note's text and its lower-cased copy (same offsets).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .secret_values import password_shaped, reference_end, token_shaped

__all__ = ["prose_spans"]

# Credential nouns (lower-case text). Word-bounded so identifiers (password_last_changed,
# private_key_passphrase) do not count: those are the assignment rules' business.
_PASSWORD_NOUN = (
    r"pass(?:word|wort|phrase|code|wd)(?:s|e|es)?|pass[ \-](?:phrase|code)|kennw[oö]rt(?:e|er)?|pwd|"
    r"mots?[ \-]de[ \-]passe|mdp|contrase[ñn]as?|claves?(?![ \-](?:de[ \-])?api)|"
    r"pin(?:[ \-]?code)?|code[ \-]pin|geheimzahl|zugangscode|codes?[ \-]d'acc[eè]s|c[oó]digo[ \-]de[ \-]acceso|"
    r"unlock[ \-]code|entsperrcode|secret|geheimnis|login[ \-]password|master[ \-]password"
)
_TOKEN_NOUN = (
    r"api[ \-_]?keys?|api[ \-]?schl[üu]ssel|cl[ée]s?[ \-](?:d'|de[ \-])?api|claves?[ \-](?:de[ \-])?api|"
    r"(?:access|secret|auth|signing|webhook|app|application|client)[ \-](?:key|token|secret)s?|"
    r"auth(?:entication)?[ \-]token|tokens?|jetons?|bearer|zugriffstoken|schl[üu]ssel"
)
# Who the credential is for: "for the etl user", "für LOADER", "du compte X", "de la cuenta Y".
_QUALIFIER = (
    r"(?:\s+(?:for|of|on|to|at|f[üu]r|von|vom|zum|zur|beim|du|de|des|pour|para|del|de[ \-]la|de[ \-]l')"
    r"(?:\s+(?:the|our|this|that|den|die|das|dem|der|le|la|les|l'|el|los|las|ce|cet|cette|ese|esa))?"
    r"(?:\s+(?:user|account|role|login|service|database|server|host|konto|benutzer|nutzer|zugang|compte|"
    r"utilisateur|serveur|cuenta|usuario|servidor))?"
    r"\s*[\w.@\-]+"
    r"(?:\s+(?:user|account|role|login|service|database|db|box|server|host|vm|instance|konto|benutzer|"
    r"nutzer|zugang|compte|utilisateur|serveur|cuenta|usuario|servidor))?){0,2}"
)
_ENCODING = (
    r"(?:\s*[,(]?\s*(?:(?:in|en|as|als|como|comme)\s+)?(?:base[ \-]?64|b64|hex(?:adecimal)?|hexa)"
    r"(?:[ \-]?(?:encoded|kodiert|codiert|cod[ée]e?|codificad[ao]|chiffr[ée]e?))?\s*[,)]?)?"
)
_COPULA = (
    r"(?:\s*(?::|=|=>|->|→|:=)"
    r"|\s+(?:is(?:\s+now|\s+still|\s+set\s+to)?|was(?:\s+set\s+to|\s+changed\s+to|\s+reset\s+to)?|"
    r"are|reads|became|ist(?:\s+jetzt|\s+noch)?|war|lautet|lautete|hei[ßs]t|sind|est|[ée]tait|sera|sont|"
    r"es|era|ser[áa]|son|now|set\s+to|changed\s+to|reset\s+to|ge[äa]ndert\s+(?:auf|in|zu)|auf)"
    r"(?:\s*:)?)"
)
_OPEN = r"""\s*(?:\*\*|__)?\s*(?:["'`«“‘]\s*)?"""
_LOGIN_VERB = re.compile(
    r"(?<![\w\-])(?:log(?:s|ged|ging)?[ \-]?(?:in|on)(?:to)?|sign(?:s|ed|ing)?[ \-]?in|connect(?:s|ed|ing)?|"
    r"authenticat\w*|ssh|sudo|anmelden|angemeldet|meld\w*\s+(?:dich|sich|euch|mich|ihn|uns)(?:\s+an)?|"
    r"einloggen|eingeloggt|logg\w*\s+(?:dich|sich|euch|mich|uns)(?:\s+ein)?|se\s+connecter|connecte[rz]?(?:-vous)?|"
    r"connectez-vous|identifiez-vous|s'identifier|iniciar\s+sesi[oó]n|inicia\s+sesi[oó]n|inicie\s+sesi[oó]n|"
    r"con[eé]ctate|conectarse|con[eé]ctese|entra|accede)(?![\w\-])"
)
_THING = (
    r"login|log-?in|sign-?in|archive|zip(?:\s+file)?|7z|rar|tarball|keystore|truststore|key\s?store|keychain|"
    r"vault|prompt|pdf|file|share|laptop|vpn|wi-?fi|router|safe|account|console|admin\s+panel|portal|box|"
    r"archiv|datei|schl[üu]sselbund|tresor|anmeldung|konto|fichier|coffre(?:-fort)?|trousseau|compte|"
    r"connexion|archivo|fichero|almac[ée]n|llavero|b[óo]veda|cuenta|sesi[óo]n"
)
_OPENS_WITH = re.compile(
    rf"(?<![\w\-])(?:{_THING})(?![\w\-])(?:[^\n.!?]|\.(?=\w)){{0,40}}?(?<![\w\-])(?:"
    r"takes|took|take|opens\s+with|opened\s+with|open\s+with|unlocks\s+with|unlock\s+with|accepts|accepted|"
    r"wants|expects|asks\s+for|needs|requires|is\s+protected\s+(?:with|by)|is\s+locked\s+with|"
    r"is\s+encrypted\s+with|decrypts\s+with|"
    r"[öo]ffnet\s+(?:sich\s+)?mit|nimmt|braucht|verlangt|erwartet|akzeptiert|will|"
    r"s'ouvre\s+avec|ouvre\s+avec|demande|attend|accepte|prend|veut|"
    r"se\s+abre\s+con|abre\s+con|pide|acepta|espera|necesita|requiere|quiere)"
    rf"(?![\w\-])(?:\s+(?:the|das|den|le|la|el)?\s*(?:{_PASSWORD_NOUN}))?(?:\s*:)?{_OPEN}"
)
_TYPE_VERB = re.compile(
    r"(?<![\w\-])(?:type|enter|paste|tippe|tippen|tipp|gib|geben\s+sie|tapez|tape|saisissez|saisis|entrez|"
    r"escribe|escriba|introduce|introduzca|teclea|wants|will)\s+" + _OPEN
)
_TYPE_AFTER = re.compile(
    r"""["'`»”’]?\s*(?:at|in|into|when|on|as|ein|an|bei|wenn|à|au|dans|quand|lorsque|en|cuando|al|typed|"""
    r"""entered|eingegeben|getippt|tap[ée]|saisi|escrito)(?![\w\-])"""
)

_LOGIN_CONTEXT = re.compile(
    r"(?<![\w\-])(?:log(?:ged|ging|s)?[ \-]?(?:in|on)|login|sign[ \-]?in|credentials?|creds|account|user(?:name)?|"
    r"benutzer(?:name)?|anmeldung|anmelden|zugang(?:sdaten)?|konto|login-daten|identifiants?|compte|connexion|"
    r"utilisateur|usuario|cuenta|credenciales|acceso|sesi[oó]n)(?![\w\-])"
)
_HALF_WORD = re.compile(
    r"(?<![\w\-])(?:halves|half|parts?|pieces?|first|second|chunks?|h[äa]lfte[n]?|teile?|moiti[ée]s?|parties?|"
    r"mitad(?:es)?|partes?|trozos?)(?![\w\-])"
)
_JOIN_WORD = re.compile(
    r"(?<![\w\-])(?:join(?:ed)?|concatenat\w*|combine[ds]?|put\s+together|glue[ds]?|append(?:ed)?|together|"
    r"zusammen\w*|anh[äa]ngen|verbinden|hintereinander|concat[ée]n\w*|joindre|coll[ée]\w*|assembl\w*|"
    r"bout\s+[àa]\s+bout|unir|une[ns]?|juntar|junta[ns]?|concatena\w*|pega\w*|seguid[ao]s?)(?![\w\-])"
)
_FRAGMENT = re.compile(
    r"""["'`«“‘][ \u00a0]?([^\s"'`«»“”‘’]{2,40})[ \u00a0]?["'`»”’]|(?<![\w\-])([^\s"'`«»“”‘’,;:()]{2,40})"""
)
_CREDENTIAL_WORD = re.compile(rf"(?<![\w\-])(?:{_PASSWORD_NOUN}|{_TOKEN_NOUN})(?![\w\-])")

_CLOSERS = "\"'`»”’"
_TRAILING = ".,;:)]}>" + _CLOSERS
_OPENERS = "\"'`«“‘"

# Value-first: a credential in prose is a rare token (letters with digits or symbols, or an inner
# capital); find those, then read the context that ends where each one starts. Prose without such a
# token costs one regex pass.
_CANDIDATE = re.compile(
    r"""(?<![^\s"'`«“‘(*_\[])[^\s"'`«»“”‘’]*?(?:[0-9!#$%&*+=?@^~]|[a-z][A-Z])[^\s"'`«»“”‘’]*"""
)
_WINDOW = 160

_NOUN_BEFORE = re.compile(
    rf"(?<![\w\-])(?:(?P<pw>{_PASSWORD_NOUN})|(?P<tok>{_TOKEN_NOUN}))"
    rf"(?:(?P<copula>{_QUALIFIER}{_ENCODING}{_COPULA}{_ENCODING})|(?P<direct>[ \t]+))(?:\*\*|__)?[ \t]*$"
)
_LOGIN_BEFORE = re.compile(
    _LOGIN_VERB.pattern + rf"(?:[^\n.!?]|\.(?=\w)){{0,80}}?(?<![\w\-])(?:with|using|via|mit|avec|con|par|by)\s+"
    rf"(?:(?:the|das|dem|le|la|el|its|seinem|seiner)\s+)?(?:(?:{_PASSWORD_NOUN})\s+)?(?::\s*)?(?:\*\*|__)?[ \t]*$"
)
_OPENS_BEFORE = re.compile(_OPENS_WITH.pattern.removesuffix(_OPEN) + r"(?:\*\*|__)?[ \t]*$")
_TYPE_BEFORE = re.compile(_TYPE_VERB.pattern.removesuffix(_OPEN) + r"[ \t]*$")
_PAIR_BEFORE = re.compile(
    r"(?<![\w@.+\-/])(?P<user>[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+|[A-Za-z][\w.\-]{1,40})"
    r"(?P<sep>[ \t]+/[ \t]+|[ \t]*/[ \t]*|[ \t]*,[ \t]+|[ \t]+\|[ \t]+)$"
)
_PIN_NOUN = re.compile(r"(?<![\w\-])(?:pin(?:[ \-]?code)?|code[ \-]pin|geheimzahl)" + _COPULA + r"[ \t]*$")
_LINE_TAIL = re.compile(r"(\S+)[ \t]*$")
_CONTINUATION = re.compile(r"[ \t>]*([^\s]{1,40})")
_DIGITS = re.compile(r"(?<![\w.:/\-])\d{4,8}(?![\w:/\-]|[.,]\d)")


def _trim(text: str, start: int, end: int) -> int:
    """The end of a value once trailing sentence punctuation is dropped (not "!" or "?": a password
    ends in one more often than a sentence around it does)."""
    quoted = start > 0 and text[start - 1] in _OPENERS
    if not quoted:
        while end > start and text[end - 1] in _TRAILING:
            end -= 1
    return end


def _continuation(text: str, end: int) -> int:
    """Where a value cut by a line break ends: the next line's first run, if that reads as its rest
    (a digit or a symbol in it, not a word of the next sentence)."""
    if end >= len(text) or text[end] != "\n":
        return end
    m = _CONTINUATION.match(text, end + 1)
    if m is None:
        return end
    rest = m.group(1).rstrip(".,;:)")
    if not rest or rest.isalpha():
        return end
    return m.start(1) + len(rest)


def reference_like(text: str, start: int) -> bool:
    """Whether what starts at ``start`` is a reference or placeholder written whole (``${X}``, ``<pw>``)."""
    end = reference_end(text, start)
    if end is None:
        return False
    return end >= len(text) or not text[end].isalnum()


def _login_nearby(lower: str, line_start: int) -> bool:
    """A login word on the value's line or on the line above it."""
    above = lower.rfind("\n", 0, max(0, line_start - 1)) + 1 if line_start else line_start
    line_end = lower.find("\n", line_start)
    window = lower[above : line_end if line_end >= 0 else len(lower)]
    return bool(_LOGIN_CONTEXT.search(window) or _LOGIN_VERB.search(window))


def _judge(text: str, lower: str, start: int, value: str, ctx_end: int) -> str | None:
    """The type of credential ``value`` is, read from the context that ends at ``ctx_end``; or None."""
    while ctx_end > 0 and text[ctx_end - 1] in _OPENERS + "*_(":
        ctx_end -= 1  # the value's opening quote or emphasis: "**Password:** `value`"
    line_start = lower.rfind("\n", 0, ctx_end) + 1
    lo = max(line_start, ctx_end - _WINDOW)
    shaped = password_shaped(value)
    m = _NOUN_BEFORE.search(lower, lo, ctx_end)
    if m is not None:
        if m.group("tok") is not None:
            ok = token_shaped(value) or (m.group("copula") is not None and shaped)
            if ok:
                return "Secret Assignment"
        elif shaped if m.group("copula") is not None else password_shaped(value, strict=True):
            return "Password"
    if not shaped:
        return None
    if _LOGIN_BEFORE.search(lower, lo, ctx_end):
        return "Login Credentials"
    if _OPENS_BEFORE.search(lower, lo, ctx_end):
        return "Password"
    if _TYPE_BEFORE.search(lower, lo, ctx_end):
        after = start + len(value)
        if _TYPE_AFTER.match(lower, after + (1 if after < len(lower) and lower[after] == " " else 0)):
            return "Password"
    m = _PAIR_BEFORE.search(text, lo, ctx_end)
    if m is not None:
        user = m.group("user")
        if "@" in user:
            return "Login Credentials"
        loginish = any(c in user for c in "_.-") or any(c.isdigit() for c in user) or user.isupper()
        spaced = "/" not in m.group("sep") or " " in m.group("sep")
        if (
            loginish
            and spaced
            and password_shaped(value, strict=True)
            and _login_nearby(lower, line_start)
        ):
            return "Login Credentials"
    return None


def _candidate_spans(text: str, lower: str) -> Iterator[tuple[int, int, str]]:
    for m in _CANDIDATE.finditer(text):
        start, raw_end = m.start(), m.end()
        end = _trim(text, start, raw_end)
        if end - start < 4 or reference_like(text, start):
            continue
        options: list[tuple[int, int]] = []  # the value as written, and joined across a line break
        if raw_end == end:
            cont = _continuation(text, raw_end)
            if cont != raw_end:
                options.append((start, cont))
        line_start = text.rfind("\n", 0, start) + 1
        if line_start and not text[line_start:start].strip(" \t>"):
            prev = _LINE_TAIL.search(text, max(0, line_start - 60), line_start - 1)
            if prev is not None and not prev.group(1).endswith((".", ":", ",", ";")):
                options.append((prev.start(1), end))
        options.append((start, end))
        for s, e in options:
            value = "".join(part.strip(" \t>") for part in text[s:e].split("\n"))
            kind = _judge(text, lower, s, value, s)
            if kind is not None:
                yield (s, e, kind)
                break


def _pin_spans(text: str, lower: str) -> Iterator[tuple[int, int, str]]:
    if "pin" not in lower and "geheimzahl" not in lower:
        return
    for m in _DIGITS.finditer(text):
        lo = max(lower.rfind("\n", 0, m.start()) + 1, m.start() - 60)
        if _PIN_NOUN.search(lower, lo, m.start()):
            yield (m.start(), m.end(), "Password")


def _half_spans(text: str, lower: str) -> Iterator[tuple[int, int, str]]:
    """Fragments in a paragraph that names a credential and says to join its parts, scored joined."""
    if not _HALF_WORD.search(lower) or not _JOIN_WORD.search(lower):
        return
    pos = 0
    for paragraph in re.split(r"\n[ \t]*\n", text):
        start = text.find(paragraph, pos)
        pos = start + len(paragraph)
        para_lower = lower[start : start + len(paragraph)]
        if len(paragraph) > 600 or not (
            _HALF_WORD.search(para_lower)
            and _JOIN_WORD.search(para_lower)
            and (_CREDENTIAL_WORD.search(para_lower) or _LOGIN_CONTEXT.search(para_lower))
        ):
            continue
        fragments: list[tuple[int, int]] = []
        for m in _FRAGMENT.finditer(paragraph):
            group = 1 if m.group(1) else 2
            frag = m.group(group).rstrip(".!?")
            if group == 2 and (frag.isalpha() or frag.isdigit() and len(frag) < 3 or _ORDINAL.match(frag)):
                continue  # unquoted words are the sentence around the fragments
            at = start + m.start(group)
            fragments.append((at, at + len(frag)))
        for i in range(len(fragments) - 1):
            for j in (i + 2, i + 3):
                part = fragments[i:j]
                if len(part) < j - i:
                    break
                joined = "".join(text[s:e] for s, e in part)
                if all(e - s < 16 for s, e in part) and password_shaped(joined, strict=True):
                    for s, e in part:
                        yield (s, e, "Password")
                    break


_ORDINAL = re.compile(r"^(?:\d+(?:st|nd|rd|th|\.|er|e|º|ª)|[12]/2)$", re.I)


def prose_spans(text: str, lower: str, lines: list[str], starts: list[int]) -> list[tuple[int, int, str]]:
    """(start, end, type) of every credential value written in prose in ``text``.

    ``lower`` is ``text`` lower-cased with the same offsets; ``lines`` and ``starts`` its lines and
    the offset each starts at.
    """
    spans = list(_candidate_spans(text, lower))
    spans.extend(_pin_spans(text, lower))
    spans.extend(_half_spans(text, lower))
    return spans
