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

from .secret_values import is_placeholder, password_shaped, reference_end, token_shaped

__all__ = ["GATE", "prose_spans"]

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
_NOUN = re.compile(rf"(?<![\w\-])(?:(?P<pw>{_PASSWORD_NOUN})|(?P<tok>{_TOKEN_NOUN}))(?![\w\-])")

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
_AFTER_NOUN = re.compile(_QUALIFIER + _ENCODING + _COPULA + _ENCODING + _OPEN)
# "with password X", "mit Passwort X", "password X": no copula; the value must be stronger.
_DIRECT = re.compile(r"""[ \t]+(?:\*\*|__)?["'`«“]?(?=\S)""")

_LOGIN_VERB = re.compile(
    r"(?<![\w\-])(?:log(?:s|ged|ging)?[ \-]?(?:in|on)(?:to)?|sign(?:s|ed|ing)?[ \-]?in|connect(?:s|ed|ing)?|"
    r"authenticat\w*|ssh|sudo|anmelden|angemeldet|meld\w*\s+(?:dich|sich|euch|mich|ihn|uns)(?:\s+an)?|"
    r"einloggen|eingeloggt|logg\w*\s+(?:dich|sich|euch|mich|uns)(?:\s+ein)?|se\s+connecter|connecte[rz]?(?:-vous)?|"
    r"connectez-vous|identifiez-vous|s'identifier|iniciar\s+sesi[oó]n|inicia\s+sesi[oó]n|inicie\s+sesi[oó]n|"
    r"con[eé]ctate|conectarse|con[eé]ctese|entra|accede)(?![\w\-])"
)
_WITH = re.compile(
    rf"[^\n.!?]{{0,80}}?(?<![\w\-])(?:with|using|via|mit|avec|con|par|by)\s+"
    rf"(?:(?:the|das|dem|le|la|el|its|seinem|seiner)\s+)?(?:(?:{_PASSWORD_NOUN})\s+)?(?::\s*)?{_OPEN}"
)
_THING = (
    r"login|log-?in|sign-?in|archive|zip(?:\s+file)?|7z|rar|tarball|keystore|truststore|key\s?store|keychain|"
    r"vault|prompt|pdf|file|share|laptop|vpn|wi-?fi|router|safe|account|console|admin\s+panel|portal|box|"
    r"archiv|datei|schl[üu]sselbund|tresor|anmeldung|konto|fichier|coffre(?:-fort)?|trousseau|compte|"
    r"connexion|archivo|fichero|almac[ée]n|llavero|b[óo]veda|cuenta|sesi[óo]n"
)
_OPENS_WITH = re.compile(
    rf"(?<![\w\-])(?:{_THING})(?![\w\-])[^\n.!?]{{0,40}}?(?<![\w\-])(?:"
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
_PAIR = re.compile(
    r"(?<![\w@.+\-/])(?P<user>[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+|[A-Za-z][\w.\-]{1,40})"
    r"(?P<sep>[ \t]+/[ \t]+|[ \t]*/[ \t]*(?=\S)|[ \t]*,[ \t]+|[ \t]+\|[ \t]+)"
    r"""["'`]?(?P<value>[^\s,;|"'`]+)"""
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
_FRAGMENT = re.compile(r"""["'`]([^\s"'`]{2,40})["'`]|(?<![\w\-])([^\s"'`,;:()]{2,40})""")
_CREDENTIAL_WORD = re.compile(rf"(?<![\w\-])(?:{_PASSWORD_NOUN}|{_TOKEN_NOUN})(?![\w\-])")

# Lower-case words any of the rules needs; a note with none of them is skipped at once.
GATE = re.compile(
    r"pass|pwd|mdp|kennw|contrase|clave|pin|secret|geheim|code|token|jeton|bearer|api|key|schl|cl[ée]|"
    r"log|sign|connect|ssh|sudo|meld|anmeld|sesi|conect|entra|accede|identif|"
    r"archiv|zip|7z|rar|store|chain|vault|prompt|pdf|file|fich|safe|coffre|tresor|b[óo]veda|llavero|"
    r"type|enter|tipp|gib|tape|saisi|entrez|escrib|introdu|teclea|@"
)

_CLOSERS = "\"'`»”’"
_TRAILING = ".,;:)]}>" + _CLOSERS
_VALUE = re.compile(r"""[^\s"'`«»“”‘’]+""")
_CONTINUATION = re.compile(r"[ \t>]*([^\s]{1,40})")


def _value_at(text: str, start: int) -> tuple[int, int] | None:
    """The value that starts at ``start``: up to a space or a quote, less trailing punctuation."""
    m = _VALUE.match(text, start)
    if m is None:
        return None
    end = m.end()
    quoted = start > 0 and text[start - 1] in "\"'`«“‘"
    if not quoted:
        # "!" and "?" stay: a password ends in one more often than a sentence around it does.
        while end > start and text[end - 1] in _TRAILING:
            end -= 1
    return (start, end) if end > start else None


def _wrapped(text: str, start: int, end: int) -> int:
    """The end of a value that a line break cuts: joined with the next line's first run, if that reads
    as the rest of it (it holds a digit or a symbol, and is not a word of the next sentence)."""
    if end >= len(text) or text[end] != "\n":
        return end
    m = _CONTINUATION.match(text, end + 1)
    if m is None:
        return end
    rest = m.group(1).rstrip(".,;:)")
    if not rest or rest.isalpha() or not any(not c.isalpha() for c in rest):
        return end
    if password_shaped(text[start:end] + rest) or token_shaped(text[start:end] + rest):
        return m.start(1) + len(rest)
    return end


def _span(text: str, start: int, accept, kind: str) -> tuple[int, int, str] | None:
    found = _value_at(text, start)
    if found is None:
        return None
    s, e = found
    if reference_like(text, s):
        return None
    e2 = _wrapped(text, s, e)
    joined = text[s:e] + (text[e:e2].split()[-1] if e2 != e else "")
    if accept(joined):
        return (s, e2, kind)
    if accept(text[s:e]):
        return (s, e, kind)
    return None


def reference_like(text: str, start: int) -> bool:
    """Whether what starts at ``start`` is a reference or placeholder written whole (``${X}``, ``<pw>``)."""
    end = reference_end(text, start)
    if end is None:
        return False
    return end >= len(text) or not text[end].isalnum()


def _pin_value(value: str) -> bool:
    return value.isdigit() and 4 <= len(value) <= 8


def _noun_spans(text: str, lower: str) -> Iterator[tuple[int, int, str]]:
    for m in _NOUN.finditer(lower):
        is_token = m.group("tok") is not None
        noun = m.group(0)
        kind = "Secret Assignment" if is_token else "Password"
        after = _AFTER_NOUN.match(lower, m.end())
        if after is not None:
            is_pin = "pin" in noun or "geheimzahl" in noun
            if is_token:
                def accept(v: str) -> bool:
                    return token_shaped(v) or password_shaped(v)
            elif is_pin:
                def accept(v: str) -> bool:
                    return _pin_value(v.strip(_CLOSERS)) or password_shaped(v)
            else:
                accept = password_shaped
            span = _span(text, after.end(), accept, kind)
            if span is not None:
                yield span
                continue
        direct = _DIRECT.match(lower, m.end())
        if direct is not None:
            if is_token:
                def strong(v: str) -> bool:
                    return token_shaped(v)
            else:
                def strong(v: str) -> bool:
                    return password_shaped(v, strict=True)
            span = _span(text, direct.end(), strong, kind)
            if span is not None:
                yield span


def _login_spans(text: str, lower: str) -> Iterator[tuple[int, int, str]]:
    for m in _LOGIN_VERB.finditer(lower):
        w = _WITH.match(lower, m.end())
        if w is not None:
            span = _span(text, w.end(), password_shaped, "Login Credentials")
            if span is not None:
                yield span
    for m in _OPENS_WITH.finditer(lower):
        span = _span(text, m.end(), password_shaped, "Password")
        if span is not None:
            yield span
    for m in _TYPE_VERB.finditer(lower):
        found = _value_at(text, m.end())
        if found is None:
            continue
        s, e = found
        if _TYPE_AFTER.match(lower, e + (1 if e < len(text) and text[e] == " " else 0)) and password_shaped(text[s:e]):
            yield (s, e, "Password")


def _pair_spans(text: str, lower: str, lines: list[str], starts: list[int]) -> Iterator[tuple[int, int, str]]:
    previous_login = False
    for number, line in enumerate(lines):
        line_lower = lower[starts[number] : starts[number] + len(line)]
        login_here = bool(_LOGIN_CONTEXT.search(line_lower)) or bool(_LOGIN_VERB.search(line_lower))
        if ("/" in line or "," in line or "|" in line) and (login_here or previous_login or "@" in line):
            for m in _PAIR.finditer(line):
                user, value = m.group("user"), m.group("value").rstrip(".)")
                if is_placeholder(value) or value == user:
                    continue
                if "@" in user:
                    ok = password_shaped(value)
                else:
                    loginish = any(c in user for c in "_.-") or any(c.isdigit() for c in user) or user.isupper()
                    ok = (login_here or previous_login) and loginish and password_shaped(value, strict=True)
                    ok = ok and "/" not in m.group("sep").strip() or ok and " " in m.group("sep")
                if ok:
                    start = starts[number] + m.start("value")
                    yield (start, start + len(value), "Login Credentials")
        previous_login = login_here if line.strip() else False


def _half_spans(text: str, lower: str) -> Iterator[tuple[int, int, str]]:
    if not _HALF_WORD.search(lower) or not _JOIN_WORD.search(lower):
        return
    pos = 0
    for paragraph in re.split(r"\n[ \t]*\n", text):
        start = text.find(paragraph, pos)
        pos = start + len(paragraph)
        para_lower = lower[start : start + len(paragraph)]
        if len(paragraph) > 600 or not (
            _HALF_WORD.search(para_lower) and _JOIN_WORD.search(para_lower)
            and (_CREDENTIAL_WORD.search(para_lower) or _LOGIN_CONTEXT.search(para_lower))
        ):
            continue
        fragments: list[tuple[int, int]] = []
        for m in _FRAGMENT.finditer(paragraph):
            group = 1 if m.group(1) else 2
            frag = m.group(group).rstrip(".!?")
            quoted = group == 1
            if not quoted and (frag.isalpha() or frag.isdigit() and len(frag) < 3 or _ORDINAL.match(frag)):
                continue
            fragments.append((start + m.start(group), start + m.start(group) + len(frag)))
        for i in range(len(fragments) - 1):
            for j in (i + 2, i + 3):
                part = fragments[i:j]
                if len(part) < j - i:
                    break
                joined = "".join(text[s:e] for s, e in part)
                if all(len(text[s:e]) < 16 for s, e in part) and password_shaped(joined, strict=True):
                    for s, e in part:
                        yield (s, e, "Password")
                    break


_ORDINAL = re.compile(r"^(?:\d+(?:st|nd|rd|th|\.|er|e|º|ª)|[12]/2)$", re.I)


def prose_spans(text: str, lower: str, lines: list[str], starts: list[int]) -> list[tuple[int, int, str]]:
    """(start, end, type) of every credential value written in prose in ``text``.

    ``lower`` is ``text`` lower-cased with the same offsets; ``lines`` and ``starts`` its lines and
    the offset each starts at.
    """
    if not GATE.search(lower):
        return []
    spans = list(_noun_spans(text, lower))
    spans.extend(_login_spans(text, lower))
    spans.extend(_pair_spans(text, lower, lines, starts))
    spans.extend(_half_spans(text, lower))
    return spans
