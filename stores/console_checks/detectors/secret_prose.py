"""Credentials written in prose, in English, German, French and Spanish.

A value counts when it has the shape of a credential (``secret_values``) and stands in a
credential context. The contexts form a small grammar, not a list of sentences:

- **after a credential noun**: ``NOUN [words about it] [encoding] COPULA VALUE``, where the words
  are any of one sentence ("für den Staging-Postgres (Benutzer loader_prod)", "we set during setup",
  "on the VM, it"), unless the first or last of them make it something other than the value
  ("hash", "fingerprint", "length", "name": ``_NOT_THE_VALUE``), and the copula is ``:``, ``=``,
  ``?``, "is", "ist", "lautet", "est", "es", "it's"... A value written right after the noun, with
  no copula, must be strictly shaped. Loose nouns ("pass", "key", "clé") need a strong value
  (``strong_password``). Token nouns ("API key", "token", "bearer", "jeton", "server token") take a
  high-entropy hex or base64 run, or a UUID after a copula.
- **what a login takes**: a login verb ("log in", "anmelden", "se connecter", "iniciar sesión")
  followed on its line by "with/using/mit/avec/con [USER and] VALUE".
- **what a thing opens with**: a login, an archive, a keystore, a vault, a prompt... that "takes",
  "wants", "accepts" a VALUE; anything that "opens/unlocks/decrypts with" one; a VALUE followed by
  "as the" and a credential noun; "mit VALUE entschlüsseln" (German puts the verb last); a VALUE one
  is told to type or enter in a sentence about a prompt, a login or a credential.
- **a pair**: ``user / value`` or ``user, value``, where the user is an e-mail address, or an
  account name on a line (or below a line) that speaks of logging in or of credentials.
- **halves to join**: fragments in a paragraph that names a credential and says to join its parts
  (in words, or with a ``+`` between quoted parts), scored once joined; long parts count when they
  join into a key or token (``ghp_...`` cut in two).
- **changed to**: a credential a sentence says was changed, set or reset to a value, the verb before
  the noun ("we changed the password to") or after it ("cambió a", "a été changé en", "wurde auf").
- **tried, used or answered**: a strong value one is told to try, use, paste or answer with, in a
  sentence (read on past the value) about a prompt, a login or a thing one unlocks.
- **noun after the value**: "VALUE – das neue Kennwort", "VALUE : c'est le mot de passe", "VALUE as the password".
- **what a sentence says the password is**: after a password noun and a copula, a value that ends
  the clause may be a simple one no word is ("The admin password for Looker is hunter2.":
  ``simple_password``); a word, a technical word, a number with its unit or a reference is not.
- **a login, then its password**: "BI login is svc_bi and VALUE" ("und", "et", "y", "with"...).
- **a bare label**: a line that is only a label naming a credential ("Password", "## Looker admin
  password", no colon needed) above a value alone on its line, past a blank line or a fence opening.

A dash stands for "is" ("passphrase — VALUE"); a noun may end a compound ("Master-Passwort") or an
identifier ("keystore_password is VALUE"). A value written in hex or base64 is judged by what it
decodes to ("pass, hex so grep won't catch it: 5761..."); base64 of plain data (a cursor such as
``offset=500``) after "token" is not a token.

A value wrapped across a line break is joined with the start of the next line before it is scored.
A value's shape is worked out only once a context is found (``_Shape``), so prose costs little.
Every function here works on the note's text and its lower-cased copy (same offsets).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .secret_values import (
    decoded_text,
    encoded_data,
    hash_prefixed,
    password_shaped,
    reference_end,
    simple_password,
    stand_in_encoding,
    strong_password,
    token_shaped,
)

__all__ = ["prose_spans"]

# Credential nouns in scripts written without spaces: the noun is bounded by the particle after it.
_CJK_NOUN = r"(?:パスワード|暗証番号|密码|密碼|口令|비밀번호|암호)(?=[はがを：:은는이가是为為\s「『(（]|$)"
# Credential nouns (lower-case text). Word-bounded so identifiers (password_last_changed,
# private_key_passphrase) do not count: those are the assignment rules' business.
_PASSWORD_NOUN = (
    r"pass(?:word|wort|phrase|code|wd)(?:s|e|es)?|pass[ \-](?:phrase|code)|kennw[oö]rt(?:e|er)?|pwd|"
    r"mots?[ \-]de[ \-]passe|mdp|contrase[ñn]as?|claves?(?![ \-](?:de[ \-])?api)|"
    r"pin(?:[ \-]?code)?|code[ \-]pin|geheimzahl|zugangscode|codes?[ \-]d'acc[eè]s|c[oó]digo[ \-]de[ \-]acceso|"
    r"unlock[ \-]code|entsperrcode|secret|secrets?|secreto|geheimnis|login[ \-]password|master[ \-]password|"
    r"phrase[ \-]secr[èe]te|phrase[ \-]de[ \-]passe|frase[ \-](?:secreta|de[ \-]paso)|geheimwort|losung|"
    r"pass|pw|key\d?|cl[ée]|llave|"
    # Dutch, Portuguese, Italian, Polish, Swedish, Russian, Turkish, Indonesian, Vietnamese; the
    # Chinese, Japanese and Korean nouns are in _CJK_NOUN (no word boundaries in those scripts).
    r"wachtwoord(?:en)?|senhas?|palavras?[ \-]passe|parola[ \-]d['’]ordine|has[łl]o|l[öo]senord|"
    r"пароль|парол[яеи]|[şs]ifre(?:si)?|kata[ \-]sandi|m[ậa]t[ \-]kh[ẩa]u|" + _CJK_NOUN
)
_TOKEN_NOUN = (
    r"api[ \-_]?keys?|api[ \-]?schl[üu]ssel|cl[ée]s?[ \-](?:d'|de[ \-])?api|claves?[ \-](?:de[ \-])?api|"
    r"(?:access|secret|auth|signing|webhook|app|application|client)[ \-](?:key|token|secret)s?|"
    r"auth(?:entication)?[ \-]token|tokens?|jetons?|bearer|zugriffstoken|schl[üu]ssel|"
    r"(?:account|storage|master|shared|primary|secondary|signing|encryption|server|service|private|"
    r"project|personal|admin|partner|integration|routing|license|licence|ingest(?:ion)?|write|read|deploy|"
    r"install|events?|user|bot|org|workspace|team|session|refresh|runner|registration)[ \-](?:key|token|secret)\d?s?|"
    r"session[ \-_]?(?:ids?|cookies?)|sessionid|cookie|pats?|personal[ \-]access[ \-]tokens?|"
    # Dutch, Italian, Portuguese, Polish and Swedish: "API-sleutel", "chiave API", "chave de API", "klucz API"
    r"api[ \-]?sleutels?|sleutels?|chiav[ei][ \-]api|chaves?[ \-](?:de[ \-]|da[ \-])?api|klucz(?:e)?[ \-]api|api[ \-]?nyckel|"
    r"tokenu?|tokens?[ \-]de[ \-]acesso"
)
# A credential noun read loosely ("pass", "key", "clé") needs a value shaped strongly (``strong_password``).
_LOOSE_NOUN = frozenset({"pass", "key", "clé", "cle", "llave", "secrets", "losung"})
# Words that make what follows a credential noun something other than its value: "the password hash
# is ...", "the token count limit is ...", "the key fingerprint: ...", "the secret name is ...".
_NOT_THE_VALUE = re.compile(
    r"(?<![\w\-])(?:hash(?:es|ed)?|digest|fingerprints?|checksum|sha\d*|md5|length|policy|policies|count|limit|"
    r"expiry|expires|id|ids|name|names|label|hint|manager|field|column|variable|var|prefix|format|rule|scope|"
    r"version|revision|commit|release|tag|port|path|file|location|type|public|rotation\s+date|age|size|"
    r"hashing|algorithms?|algorithmus|algorithme|algoritmo|scheme|cipher|engine|backend|provider|strength|"
    r"complexity|requirements?|minimum|maximum|min|max|"
    r"l[äa]nge|richtlinie|longueur|politique|longitud|pol[íi]tica|nombre|nom|"
    r"comments?|kommentar|commentaire|comentario)(?![\w\-])"
)
# Who the credential is for: "for the etl user", "für LOADER", "du compte X", "de la cuenta Y".
# What the credential is for, and any words about it, up to the copula: "for the etl user", "für den
# Staging-Postgres (Benutzer loader_prod)", "du compte dbt_svc après la rotation", "we set during
# setup", "on the analysis VM, it". Within one sentence: no sentence end, no colon or equals sign.
_QUALIFIER = r"(?P<qual>(?:[^\n.!?:=]|\.(?=\w)){0,90}?)"
_ENCODING = (
    r"(?:\s*[,(]?\s*(?:(?:in|en|as|als|como|comme)\s+)?(?:base[ \-]?64|b64|hex(?:adecimal)?|hexa)"
    r"(?:[ \-]?(?:encoded|kodiert|codiert|cod[ée]e?|codificad[ao]|chiffr[ée]e?))?\s*[,)]?)?"
)
_COPULA = (
    r"(?:\s*(?::|=|=>|->|→|:=|\?|[—–])|\s+-(?=\s)"  # a dash stands for "is" in notes: "passphrase — VALUE"
    r"|\s+(?:is(?:\s+now|\s+still|\s+set\s+to)?|was(?:\s+set\s+to|\s+changed\s+to|\s+reset\s+to)?|"
    r"are|reads|became|ist(?:\s+jetzt|\s+noch)?|war|lautet|lautete|hei[ßs]t|sind|est|[ée]tait|sera|sont|"
    r"es|era|ser[áa]|son|now|set\s+to|changed\s+to|reset\s+to|ge[äa]ndert\s+(?:auf|in|zu)|auf|"
    r"becomes|wird|devient|queda|qued[óo](?:\s+(?:como|en))?|pas[óo]\s+a(?:\s+ser)?|pasa\s+a\s+ser|"
    r"est\s+pass[ée]e?\s+[àa]|est\s+devenue?|is\s+going\s+to\s+be|will\s+be|ends?\s+up\s+(?:as|being)|"
    # changed to, after the noun: "cambió a", "a été changé en", "wurde auf ... geändert" (auf above)
    r"(?:has\s+been|have\s+been|got|was|were|is)\s+(?:changed|reset|set|rotated|updated|moved)\s+to|"
    r"(?:changed|rotated|updated|moved|reset)\s+to|(?:se\s+)?cambi[óo]\s+(?:a|por)|"
    r"(?:a|ont|est|sont)\s+[ée]t[ée]\s+(?:chang|modifi|r[ée]initialis|mis)[ée]?e?s?\s+(?:en|[àa]|pour)|"
    r"wurde\s+(?:auf|zu)|"
    # a value written as such: "current value X", "aktueller Wert X", "valeur actuelle X"
    r"(?:current\s+|actual\s+|aktuelle[rn]?\s+)?(?:value|wert)|valeur(?:\s+actuelle)?|valor(?:\s+actual)?)"
    # an adverb of time after the verb: "lautet jetzt", "est désormais", "es ahora"
    r"(?:\s+(?:now|currently|still|jetzt|nun|noch|aktuell|derzeit|maintenant|d[ée]sormais|actuellement|"
    r"toujours|ahora|actualmente|todav[íi]a|ya))?"
    r"|\s+(?:é|è|e['’]|era|fica|wordt|luidt|zijn|são|sono|resta|jest|är|это|adalah|là)"  # pt, it, nl, pl, sv, ru, id, vi
    r"|[ \t]*(?:は|が|是|为|為|：|은|는|이|가)"  # Japanese, Chinese and Korean particles and the full-width colon
    r"|(?<=\w)['’]s"  # "it's", "that's"
    r"|\s+c['’]est|\s+ist\s+es|\s+es\s+ist)"
    r"(?:\s*:)?"
)
_OPEN = r"""\s*(?:\*\*|__)?\s*(?:["'`«“‘]\s*)?"""
_LOGIN_VERB = re.compile(
    r"(?<![\w\-])(?:log(?:s|ged|ging)?[ \-]?(?:in|on)(?:to)?|sign(?:s|ed|ing)?[ \-]?in|connect(?:s|ed|ing)?|"
    r"authenticat\w*|ssh|sudo|anmelden|angemeldet|meld\w*\s+(?:dich|sich|euch|mich|ihn|uns)(?:\s+an)?|"
    r"einloggen|eingeloggt|logg\w*\s+(?:dich|sich|euch|mich|uns)(?:\s+ein)?|se\s+connecter|connecte[rz]?(?:-vous)?|"
    r"connectez-vous|identifiez-vous|s'identifier|connexion|conexi[oó]n|anmeldung|iniciar\s+sesi[oó]n|inicia\s+sesi[oó]n|inicie\s+sesi[oó]n|"
    r"con[eé]ctate|conectarse|con[eé]ctese|entra[rs]?|entre|accede[rs]?|ingresa[rs]?|ingrese)(?![\w\-])"
)
_THING = (
    r"login|log-?in|sign-?in|archive|zip(?:\s+file)?|7z|rar|tarball|keystore|truststore|key\s?store|keychain|"
    r"vault|prompt|pdf|file|share|laptop|vpn|wi-?fi|router|safe|account|console|admin\s+panel|portal|box|"
    r"archiv|datei|schl[üu]sselbund|tresor|anmeldung|konto|fichier|coffre(?:-fort)?|trousseau|compte|"
    r"connexion|archivo|fichero|almac[ée]n|llavero|b[óo]veda|cuenta|sesi[óo]n|"
    # systems one logs in to: a value said to "work" on one is its password
    r"s?ftps?|sftp\s+drop|bastion|server|database|cluster|sheet|workbook|spreadsheet|hoja|blatt|feuille|"
    r"excel|mappe|classeur|libro"
)
_OPENS_WITH = re.compile(
    rf"(?<!\w)(?:{_THING})(?:-\w+)?(?![\w\-])(?:[^\n.!?]|\.(?=\w)){{0,40}}?(?<![\w\-])(?:"
    r"takes|took|take|opens\s+with|opened\s+with|open\s+with|unlocks\s+with|unlock\s+with|accepts|accepted|"
    r"wants|expects|asks\s+for|needs|requires|"
    # "is protected with", "is locked for editing with", "is encrypted at rest with"
    r"is\s+(?:protected|locked|encrypted|secured)(?:\s+(?:for|against|from|at)\s+[\w\-]+)?\s+(?:with|by)|"
    r"decrypts\s+with|"
    r"[öo]ffnet\s+(?:sich\s+)?mit|nimmt|braucht|verlangt|erwartet|akzeptiert|will|"
    r"s'ouvre\s+avec|ouvre\s+avec|demande|attend|accepte|prend|veut|"
    r"se\s+abre\s+con|abre\s+con|pide|acepta|espera|necesita|requiere|quiere)"
    rf"(?![\w\-])(?:\s+(?:the|das|den|le|la|el)?\s*(?:{_PASSWORD_NOUN}))?(?:\s*:)?{_OPEN}"
)
_THING_WORD = re.compile(rf"(?<!\w)(?:{_THING})(?!\w)")
_COPULA_BEFORE = re.compile(_COPULA + r"(?:\*\*|__)?[ \t]*$")
_TYPE_VERB = re.compile(
    r"(?<![\w\-])(?:type|typed|enter|paste|tippe|tippen|tipp|gib|geben\s+sie|einzugeben(?:\s+ist)?|eingeben|"
    r"eintippen|tapez|taper|tape|saisir|saisissez|saisis|entrez|entrer|"
    r"escribe|escriba|escribir|introduce|introduzca|introducir|teclea|teclee|teclear|ingresar|wants|will|"
    # answering a prompt: "answer VALUE", "antworte mit VALUE", "réponds VALUE", "responde con VALUE"
    r"answer(?:\s+with)?|reply(?:\s+with)?|respond\s+with|antworte(?:\s+mit)?|antworten\s+mit|"
    r"r[ée]ponds?(?:\s+par|\s+avec)?|r[ée]pondez(?:\s+par|\s+avec)?|responde(?:\s+con)?|conteste(?:\s+con)?|"
    # using or trying a value: "use VALUE", "then paste VALUE", "try VALUE", "prueba VALUE", "probier mal VALUE"
    r"use|using|utilise[rz]?|usa|usar|benutze|verwende|nimm|try|trying|tried|prueba|probar|intenta|essaie[rz]?|"
    r"essayez|probier\w*(?:\s+mal)?|versuch\w*(?:\s+mal|\s+es\s+mit)?|then\s+paste|einfach)\s+" + _OPEN
)
_TYPE_AFTER = re.compile(
    r"""["'`»”’]?\s*(?:at|in|into|when|on|as|ein|an|bei|wenn|à|au|dans|quand|lorsque|en|cuando|al|typed|"""
    r"""entered|eingegeben|getippt|tap[ée]|saisi|escrito)(?![\w\-])"""
)

_LOGIN_CONTEXT = re.compile(
    r"(?<!\w)(?:log(?:ged|ging|s)?[ \-]?(?:in|on)|login|sign[ \-]?in|credentials?|creds|(?:basic\s+)?auth|account|user(?:name)?|"
    r"benutzer(?:name)?|anmeldung|anmelden|zugang(?:sdaten)?|konto|login-daten|identifiants?|compte|connexion|"
    r"utilisateur|usuario|cuenta|credenciales|acceso|acc[eè]s|sesi[oó]n)(?![\w\-])"
)
_HALF_WORD = re.compile(
    r"(?<![\w\-])(?:halves|half|parts?|pieces?|first|second|chunks?|fragments?|segments?|pairs?|"
    r"prefix|suffix|pr[äa]fix|suffixe?|pr[ée]fixe|prefijo|sufijo|"
    r"h[äa]lfte\w*|teil\w*|"
    r"st[üu]ck\w*|moiti[ée]s?|parties?|morceaux|morceau|mitad(?:es)?|partes?|trozos?|fragmentos?)(?![\w\-])"
)
_JOIN_WORD = re.compile(
    r"(?<![\w\-])(?:join(?:ed)?|concatenat\w*|combine[ds]?|put\s+together|glue[ds]?|append(?:ed)?|together|"
    r"zusammen\w*|anh[äa]ngen|verbinden|hintereinander|concat[ée]n\w*|joindre|coll[ée]\w*|assembl\w*|"
    r"bout\s+[àa]\s+bout|unir\w*|une[ns]?|junt\w+|concatena\w*|pega\w*|seguid[ao]s?)(?![\w\-])"
)
_FRAGMENT = re.compile(
    r"""["'`«“‘][ \u00a0]?([^\s"'`«»“”‘’]{2,40})[ \u00a0]?["'`»”’]|(?<![\w\-])([^\s"'`«»“”‘’,;:()]{2,40})"""
)
# Quoted fragments written with a "+" between them: "Wk4#t" + "r9PzQ".
_PLUS_JOIN = re.compile(r"""["'`»”’][ \t]*\+[ \t]*["'`«“‘]""")
_CREDENTIAL_WORD = re.compile(rf"(?<![\w\-])(?:{_PASSWORD_NOUN}|{_TOKEN_NOUN})(?![\w\-])")

# A slot of a naming pattern inside a value: "<team>", "{env}", "${ENV}".
_TEMPLATE_SLOT = re.compile(r"<[A-Za-z_][\w \-]{0,30}>|\$?\{[A-Za-z_][\w.\-]{0,30}\}")
# A program and its version, what a file "opens with": Excel365, Python3.11, Office-2019.
_PRODUCT = re.compile(r"^[A-Z]?[a-z]{2,}[ \-_]?v?\d+(?:\.\d+)*$")
# The accounts every system has: a pair "admin / VALUE" needs no login word around it.
_ACCOUNT_NAMES = frozenset("admin administrator root sa postgres superuser sysadmin ubuntu guest".split())
_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_CLOSERS = "\"'`»”’」』"
_TRAILING = ".,;:)]}>。，；、）" + _CLOSERS
_OPENERS = "\"'`«“‘「『"

# Value-first: a credential in prose is a rare token (letters with digits or symbols, or an inner
# capital); find those, then read the context that ends where each one starts. Prose without such a
# token costs one regex pass.
_CANDIDATE = re.compile(
    # The full-width punctuation of Chinese and Japanese ends a run as a space does: "密码：VALUE。".
    r"""(?<![^\s"'`«“‘(*_\[「『：，、])[^\s"'`«»“”‘’「」『』：，。、；]*?(?:[0-9!#$%&*+=?@^~]|[a-z][A-Z])"""
    r"""[^\s"'`«»“”‘’「」『』：，。、；]*"""
)
_WINDOW = 160

_NOUN_BEFORE = re.compile(
    # German joins nouns into one word: "Datenbankpasswort", "Adminkennwort", "Zugangsschlüssel".
    rf"(?:(?<![\w\-])|(?<=[^\W\d_]{{2}}[\-_])|(?<=[a-zäöüß]{{3}})(?=passw[oö]rt|kennw[oö]rt|schl[üu]ssel)|(?={_CJK_NOUN}))"
    rf"(?:(?P<tok>{_TOKEN_NOUN})|(?P<pw>{_PASSWORD_NOUN}))(?:(?![\w\-])|(?<=[ド号码碼令호]))"
    rf"(?:(?P<copula>{_QUALIFIER}{_ENCODING}{_COPULA}{_ENCODING})|(?P<direct>{_ENCODING}(?:[ \t]*,)?[ \t]+))(?:\*\*|__)?[ \t]*$"
)
_LOGIN_BEFORE = re.compile(
    _LOGIN_VERB.pattern + rf"(?:[^\n.!?]|\.(?=\w)){{0,80}}?(?<![\w\-])"
    r"(?:with|using|via|mit|avec|con|par|by|use|usa|utilise[rz]?|benutze|nutze|verwende)\s+"
    rf"(?:(?:the|das|dem|le|la|el|its|seinem|seiner|l')\s*)?(?:(?:{_PASSWORD_NOUN})\s+)?"
    r"(?:(?:account|user|login|compte|utilisateur|cuenta|usuario|konto|benutzer|nutzer)\s+)?(?::\s*)?"
    # "with looker_svc and VALUE", "mit analyst / VALUE": the login name first, then the value.
    r"(?P<user>[\"'`]?[\w.@+\-]{2,40}[\"'`]?\s*(?:and|und|et|y|e|/|,)\s*)?(?:\*\*|__)?[ \t]*$"
)
# A value a credential was changed or set to: "we changed the password to VALUE", "they set the
# passphrase for the vault to VALUE", "on a changé le mot de passe en VALUE", "cambiamos la contraseña a VALUE".
_CHANGED_TO_BEFORE = re.compile(
    r"(?<![\w\-])(?:chang\w*|set|sets|setting|reset\w*|updat\w*|rotat\w*|switch\w*|mov\w*|"
    r"chang[ée]\w*|modifi[ée]\w*|r[ée]initialis[ée]\w*|mis|cambi\w*|actualiz\w*|restablec\w*|pus\w*|"
    r"ge[äa]ndert|gesetzt|zur[üu]ckgesetzt|[äa]ndern|setzen)"
    r"(?:[^\n.!?:=]|\.(?=\w)){0,30}?(?<![\w\-])(?P<noun>" + _PASSWORD_NOUN + r")(?![\w\-])"
    r"(?:[^\n.!?:=]|\.(?=\w)){0,40}?\s(?:to|into|à|en|a|por|auf|zu)(?:\*\*|__)?[ \t]*$"
)
_OPENS_BEFORE = re.compile(_OPENS_WITH.pattern.removesuffix(_OPEN) + r"(?:\*\*|__)?[ \t]*$")
_TYPE_BEFORE = re.compile(_TYPE_VERB.pattern.removesuffix(_OPEN) + r"[ \t]*$")
_PAIR_BEFORE = re.compile(
    r"(?<![\w@.+\-/])[\"'`]?(?P<user>[\w.+\-]+@(?:[\w\-]+(?:\.[\w\-]+)*)?|[A-Za-z][\w.\-]{1,40})[\"'`]?"
    r"(?P<sep>[ \t]+/[ \t]+|[ \t]*/[ \t]*|[ \t]*,[ \t]+|[ \t]+\|[ \t]+)$"
)
_PIN_NOUN = re.compile(
    r"(?<![\w\-])(?:pin(?:[ \-]?code)?|code[ \-]pin|c[oó]digo[ \-]pin|pin[ \-]nummer|geheimzahl)(?![\w\-])"
    + _QUALIFIER
    + _COPULA
    + r"[ \t]*$"
)
# A login named, then its password joined to it: "BI login is svc_bi and VALUE", "der Benutzer ist
# svc_bi und VALUE", "l'identifiant est svc_bi et VALUE", "el usuario es svc_bi y VALUE".
_CONJUNCTION_END = re.compile(r"\s(?:and|plus|with|und|mit|et|avec|y|con)\s+(?:\*\*|__)?[ \t]*$")
_LOGIN_IS_USER_AND = re.compile(
    r"(?:(?<![\w\-])|(?<=[^\W\d_]{2}[\-_]))(?:log-?in|login-daten|user(?:name)?|account|benutzer(?:name)?|nutzer|konto|anmeldung|"
    r"zugang(?:sdaten)?|identifiants?|compte|utilisateur|usuario|cuenta|credentials?|creds|credenciales)(?![\w\-])"
    + _QUALIFIER
    + _COPULA
    + r"""[ \t]*(?:\*\*|__)?["'`]?(?P<user>[\w.@+\-]{2,40})["'`]?(?:\*\*|__)?"""
    r"\s+(?:and|plus|with|und|mit|et|avec|y|con)\s+(?:\*\*|__)?[ \t]*$"
)
# A label on a line of its own, with no colon, above a value alone on its line (or in a fence):
# "Password", "## Looker admin password", "**Kennwort (Staging)**", "Mot de passe du compte BI".
_BARE_LABEL = re.compile(
    r"[ \t>]*(?:#{1,6}[ \t]+)?(?:\*\*|__)?(?P<words>(?:[^\W\d_][\w'’\-]*[ \t]+){0,5}?)"
    rf"(?:[a-zäöüß]{{3,}}(?=passw|kennw))?(?:(?P<tok>{_TOKEN_NOUN})|(?P<pw>{_PASSWORD_NOUN}))"
    r"(?:[ \t]+(?:de[ \t]|del[ \t]|du[ \t]|des[ \t]|f[üu]r[ \t]|for[ \t])?[^\W\d_][\w\-]*){0,3}?"
    r"(?:[ \t]+\([^()\n]{0,40}\))?(?:\*\*|__)?[ \t]*"
)
_FENCE_LINE = re.compile(r"[ \t]{0,3}(?:```|~~~)[\w+\-]*[ \t]*")


def _label_above(text: str, line_start: int) -> tuple[int, int] | None:
    """The line above a value's line that labels it, past one blank line and an opening fence: its span."""
    end = line_start - 1
    skipped_fence = False
    for _ in range(4):
        if end < 0:
            return None
        start = text.rfind("\n", 0, end) + 1
        line = text[start:end]
        if not line.strip():
            end = start - 1
            continue
        if not skipped_fence and _FENCE_LINE.fullmatch(line):
            skipped_fence = True
            end = start - 1
            continue
        return start, end
    return None


def _value_alone(text: str, after: int) -> bool:
    """Whether nothing but closing quotes or a fence follows the value on its line."""
    line_end = text.find("\n", after)
    rest = text[after : line_end if line_end >= 0 else len(text)]
    return not rest.strip(" \t`'\"»”’*_")


def _bare_label_kind(text: str, lower: str, line_start: int, start: int, shape: _Shape) -> str | None:
    """The credential a value alone on its line is, when the line above is a bare label naming one."""
    if not _value_alone(text, start + len(shape.value)):
        return None
    span = _label_above(text, line_start)
    if span is None or span[1] - span[0] > 80:
        return None
    m = _BARE_LABEL.fullmatch(lower, *span)
    if m is None or _NOT_THE_VALUE.search(m.group("words") or "") or _PUBLIC_BEFORE.search(m.group("words") or ""):
        return None
    if _TEMPLATE_SLOT.search(shape.value):
        return None
    if m.group("tok") is not None:
        ok = token_shaped(shape.value) or shape.strong
        return "Secret Assignment" if ok and not encoded_data(shape.value) else None
    noun = m.group("pw")
    # A label and a value alone below it say what the value is, as "is" does: a simple one counts.
    ok = shape.strong if noun in _LOOSE_NOUN or noun.startswith("key") else shape.simple
    return "Password" if ok else None


# A value typed, unlocked or decrypted with, read from the words after it: "acepta X como contraseña",
# "X as the password", "lässt sich mit X entschlüsseln" (German puts the verb last).
_AS_NOUN_AFTER = re.compile(
    r"""["'`»”’]?(?:\s+(?:as|als|comme|como|en\s+tant\s+que|is|ist|est|es|was|war|sera|will\s+be)|\s*[—–:]|\s+-|\s*,)\s+"""
    r"""(?:(?:c['’]est|it['’]s|this\s+is|that['’]s|das\s+ist|es\s+ist|es|ce\s+sera)\s+)?"""
    r"""(?:(?:now|jetzt|nun|d[ée]sormais|ahora)\s+)?(?:(?:the|its|a|das|den|ein|le|la|l'|el|su|un|una)\s*)?"""
    r"(?:(?:new|neues?|nouveau|nouvelle|nueva|nuevo|admin)\s+)?(?P<noun>" + _PASSWORD_NOUN + r")(?![\w\-])"
)
_VERB_LAST_AFTER = re.compile(
    r"""["'`»”’]?\s+(?:zu\s+)?(?:entschl[üu]sseln|[öo]ffnen|entsperren|anmelden|einloggen|freischalten|eingeben|"""
    r"eintippen|eingetippt|eingegeben|entschl[üu]sselt|ge[öo]ffnet|tippen|eintragen|einf[üu]gen|verwenden|"
    r"benutzen|nehmen|auf(?=\s*(?:[.!,;]|$))|aufmachen|aufsperren)(?![\w\-])"
)
# What a system wants, with no thing named before the verb ("the Redis instance on the build VM takes
# VALUE", "der VPN-Client verlangt nach dem OTP noch VALUE"): a few words may sit between the verb
# and the value, which must then be strongly shaped.
_WANTS_BEFORE = re.compile(
    r"(?<![\w\-])(?:takes|wants|accepts|asks\s+for|verlangt|nimmt|akzeptiert|demande|accepte|veut|pide|acepta|quiere)"
    r"(?![\w\-])(?:[ \t]+[^\s.!?:=,;()]{1,20}){0,4}?[ \t]+(?:\*\*|__)?$"
)
# A number a prompt wants typed: "the BIOS wants 43698570 typed at boot".
_TYPED_AFTER = re.compile(
    r"""["'`»”’]?\s+(?:typed|entered|eingegeben|eingetippt|getippt|tap[ée]s?|saisis?|escrito|tecleado|introducido)(?![\w\-])"""
)
_YEAR = re.compile(r"^(?:19|20)\d\d$")
# "typed as the year", "entered as the port": the words after say what the number is.
_TYPED_AS = re.compile(rf"\s+(?:as|als|comme|como)\s+(?:the|a|an|das|die|der|le|la|el)?\s*(?!(?:{_PASSWORD_NOUN})(?![\w\-]))\w")
# The word before a credential noun that makes it published, not secret: "the public key comment is ...".
_PUBLIC_BEFORE = re.compile(r"(?<![\w\-])(?:public|[öo]ffentliche[rsnm]?|publique|p[úu]blic[ao])[ \t\-]+$")
_WITH_BEFORE = re.compile(r"(?<![\w\-])(?:mit|with|avec|con)\s+(?:\*\*|__)?[ \t]*$")
# Opening, unlocking or decrypting with a value: the verb says what the value is, whatever is opened.
_UNLOCK_BEFORE = re.compile(
    r"(?<![\w\-])(?:opens?|opened|opening|unlocks?|unlocked|decrypts?|decrypted|decrypting|s'ouvre|ouvre|"
    r"d[ée]verrouille\w*|d[ée]chiffre\w*|se\s+abre|abre|descifra\w*|desbloquea\w*|desencripta\w*|"
    r"[öo]ffnet(?:\s+sich)?|entschl[üu]sselt(?:\s+sich)?|entsperrt(?:\s+sich)?|"
    r"unprotect\w*|desproteg\w*|d[ée]prot[ée]g\w*|entsch[üu]tz\w*|blattschutz\s+aufheben)"
    # what is opened may sit between: "unprotect sheet with", "desproteger la hoja de Excel usa"
    r"(?:\s+(?:[^\n.!?:=,;]){1,40}?)?,?"
    r"\s+(?:with|using|use|mit|avec|con|par|usa|usar|utilise[rz]?|benutze|nimm|verwende)\s+(?:(?:the|its|das|dem|der|le|la|l'|el|su)\s*)?"
    rf"(?:(?:{_PASSWORD_NOUN})\s+)?(?::\s*)?(?:\*\*|__)?[ \t]*$"
)
# What makes a sentence about a prompt or a login: a value typed in it is what the prompt wants.
_PROMPT_CONTEXT = re.compile(
    r"(?<![\w\-])(?:prompt\w*|asks?|asked|(?:nach|ab|an|zur[üu]ck)?fragt|nachgefragt|gefragt|abfrage|\w{0,8}sql|demande\w*|pide|pregunta\w*|sudo|ssh|ssh-add|"
    r"mysql|psql|sqlplus|sqlcmd|pgadmin|kinit|gpg|keytool|openssl|keystore|worked|marché|funcion\w*|ging|klappte|"
    r"unlock\w*|"
    r"entsperr\w*|d[ée]verrouill\w*|desbloque\w*)(?![\w\-])"
)
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|\n")
_LINE_TAIL = re.compile(r"(\S+)[ \t]*$")
_CONTINUATION = re.compile(r"[ \t>]*([^\s]{1,40})")
_DIGITS = re.compile(r"(?<![\w.:/\-])\d{4,8}(?![\w:/\-]|[.,]\d)")


_LOWER_WORD = re.compile(r"[a-zß-öø-ÿ]+")


def _trim(text: str, start: int, end: int) -> int:
    """The end of a value once trailing sentence punctuation is dropped (not "!" or "?": a password
    ends in one more often than a sentence around it does)."""
    quoted = start > 0 and text[start - 1] in _OPENERS
    if not quoted:
        while end > start and text[end - 1] in _TRAILING:
            end -= 1
        if end - start > 1 and text[end - 1] in "?!" and _LOWER_WORD.fullmatch(text, start, end - 1):
            end -= 1  # "was leaked?", "is wrong!": a word of the sentence, then its own punctuation
    elif end > start and text[end - 1] == ":" and (end == len(text) or text[end].isspace()):
        end -= 1  # "`valueFrom: secretKeyRef: ...`": a key of a mapping, its colon no part of it
    return end


# The key a line of settings opens with: "key_rotation_days:", "MAX_TOKENS=4096".
_KEY_OF_LINE = re.compile(r"[A-Za-z_][\w.\-]*(?::$|=)")


def _continuation(text: str, end: int) -> int:
    """Where a value cut by a line break ends: the next line's first run, if that reads as its rest
    (a digit or a symbol in it, not a word of the next sentence)."""
    if end >= len(text) or text[end] != "\n":
        return end
    m = _CONTINUATION.match(text, end + 1)
    if m is None:
        return end
    rest = m.group(1).rstrip(".,;:)")
    if not rest or rest.isalpha() or _KEY_OF_LINE.match(m.group(1)):
        return end  # a word of the next sentence, or the key that opens the next line ("max_tokens:")
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


def _about_the_credential(qual: str) -> bool:
    """Whether the words after a credential noun name something about it, not its value: "hash",
    "fingerprint", "length" right after the noun ("the password hash is") or right before the copula
    ("the token for the loader, its expiry:")."""
    words = qual.split()
    if not words:
        return False
    near = " ".join(words[:2] + words[-1:])
    return bool(_NOT_THE_VALUE.search(near))


class _Shape:
    """What a candidate value looks like, each answer worked out once and only when a context asks."""

    __slots__ = ("value", "_shaped", "_strict", "_strong", "_decoded", "ends_clause")

    def __init__(self, value: str) -> None:
        self.value = value
        self._shaped: bool | None = None
        self._strict: bool | None = None
        self._strong: bool | None = None
        self._decoded: str | None | bool = False  # False: not worked out yet
        self.ends_clause = False  # the value ends its clause: "is hunter2." (set by the caller)

    @property
    def decoded(self) -> str | None:
        """The password a hex or base64 value encodes ("hex so grep won't catch it: 5761..."), if any."""
        if self._decoded is False:
            text = decoded_text(self.value) if len(self.value) >= 8 else None
            self._decoded = text if text is not None and password_shaped(text, strict=True) else None
        return self._decoded  # type: ignore[return-value]

    @property
    def shaped(self) -> bool:
        if self._shaped is None:
            self._shaped = (
                password_shaped(self.value)
                and not _TEMPLATE_SLOT.search(self.value)
                and not stand_in_encoding(self.value)  # YWRtaW46YWRtaW4= is "admin:admin", a default login
            )
        return self._shaped

    @property
    def strict(self) -> bool:
        if self._strict is None:
            self._strict = self.shaped and password_shaped(self.value, strict=True)
        return self._strict

    @property
    def simple(self) -> bool:
        """Shaped, or a simple password no word is (``hunter2``): for what a sentence says a password is."""
        return self.shaped or (not _TEMPLATE_SLOT.search(self.value) and simple_password(self.value))

    @property
    def strong(self) -> bool:
        if self._strong is None:
            self._strong = self.strict and strong_password(self.value) or (
                self.decoded is not None and strong_password(self.decoded)
            )
        return self._strong


def _noun_kind(lower: str, lo: int, ctx_end: int, shape: _Shape) -> str | None:
    """The type of credential the value is, when a credential noun (and its clause) ends at ``ctx_end``."""
    value = shape.value
    pos = lo
    while pos < ctx_end:
        m = _NOUN_BEFORE.search(lower, pos, ctx_end)
        if m is None:
            return None
        pos = m.start() + 1
        if _PUBLIC_BEFORE.search(lower, max(0, m.start() - 16), m.start()):
            continue  # "the public key ...": a public key and what goes with it are published
        if _about_the_credential(m.group("qual") or ""):
            continue  # "the password hash is ...", "the key fingerprint: ..."
        if _TEMPLATE_SLOT.search(value):
            return None  # "svc_<team>_v2", "{env}_loader": a naming pattern, not a value
        copula = m.group("copula") is not None
        if m.group("tok") is not None:
            if encoded_data(value):
                continue  # base64 of a cursor or a JSON page: "the pagination token is base64 of offset=500"
            if token_shaped(value) or shape.strong or (copula and shape.shaped):
                return "Secret Assignment"
            # Some providers' keys are UUIDs (Postmark, Heroku): after a token noun and a copula, one is.
            if copula and _UUID.match(value):
                return "Secret Assignment"
            continue
        noun = m.group("pw")
        if noun in _LOOSE_NOUN or noun.startswith("key"):
            ok = shape.strong  # "pass X", "key X", "clé : X": words of many other meanings
        elif copula:
            # What a sentence says the password is, the clause ending with it: a simple one counts too.
            ok = shape.shaped or shape.ends_clause and shape.simple
        else:
            ok = shape.strict
        if ok:
            return "Password"
    return None


def _sentence_about_a_login(lower: str, lo: int, ctx_end: int, nouns: bool = True, value_end: int = -1) -> bool:
    """Whether the sentence holding the value at ``ctx_end`` speaks of a prompt, a login, a thing one
    unlocks, or (with ``nouns``) a credential: before the value, or after it ("it's VALUE for the
    pgadmin login", "Essaie VALUE, c'est ce qui a marché pour le keystore")."""
    after = max(ctx_end, value_end)  # a value may end in "!" or "?": the sentence goes on after it
    end = _SENTENCE_END.search(lower, after, after + _WINDOW)
    sentence = lower[_sentence_start(lower, lo, ctx_end) : end.start() if end else min(len(lower), after + _WINDOW)]
    return bool(
        _PROMPT_CONTEXT.search(sentence)
        or _LOGIN_CONTEXT.search(sentence)
        or _LOGIN_VERB.search(sentence)
        or nouns and _CREDENTIAL_WORD.search(sentence)
        or _THING_WORD.search(sentence)
    )


# Nouns that say a value identifies or describes something, never unlocks it.
_NAMES_AN_ID = re.compile(
    r"ids?|identifiers?|names?|numbers?|nummer|num[ée]ro|n[úu]mero|serial|locator|arn|uuid|sid|hash(?:es)?|digest|"
    r"fingerprints?|checksum|sha\d*|md5|version|revision|commit|tag|kennung|identifiant|identificador"
)
_LAST_WORDS = re.compile(r"([^\W\d_][\w\-]*)[\"'`]?[ \t]*(?:\([^()\n]{0,40}\))?[ \t]*$")


def _names_other(lower: str, lo: int, end: int) -> bool:
    """Whether the subject that ends at ``end`` (before a copula) names something other than a
    credential's value: "the client id is", "the account number:", "its fingerprint is"."""
    m = _LAST_WORDS.search(lower, lo, end)
    # the word, or the last part of a key written as one identifier ("client_id", "account-number")
    return m is not None and _NAMES_AN_ID.fullmatch(re.split(r"[_\-.]", m.group(1))[-1]) is not None


def _sentence_start(lower: str, lo: int, ctx_end: int) -> int:
    """Where the sentence holding ``ctx_end`` starts (no earlier than ``lo``)."""
    start = lo
    for m in _SENTENCE_END.finditer(lower, lo, ctx_end):
        start = m.end()
    return start


# The algorithm word that opens an OpenSSH public key line (any language's "public key: ..." before it).
_PUBLIC_KEY_TYPE = re.compile(r"(?:sk-)?(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d{3})(?:@openssh\.com)?")


_CLAUSE_END = re.compile(r"""[`"'»”’*_)]*(?:[.,;!?]+(?=\s|$)|[ \t]*(?:\n|$))""")


def _ends_clause(text: str, after: int) -> bool:
    """Whether the clause ends where a value does: "is hunter2.", "is hunter2, and", "is `hunter2`"."""
    return after >= len(text) or _CLAUSE_END.match(text, after) is not None


def _judge(text: str, lower: str, start: int, value: str, ctx_end: int) -> str | None:
    """The type of credential ``value`` is, read from the context that ends at ``ctx_end``; or None.

    Each context is a regex over at most ``_WINDOW`` characters before the value (or a few after it);
    the value's shape is worked out only once a context is found.
    """
    if "[REDACTED:" in value:
        return None  # what redact() left in place of a value: a scrubbed record passes the check
    if _PUBLIC_KEY_TYPE.fullmatch(value.rstrip(_TRAILING)):
        return None  # "Öffentlicher Schlüssel: ssh-ed25519 AAAA...": a public key's type, then the key, shown
    while ctx_end > 0:
        if text[ctx_end - 1] in _OPENERS + "*_(":
            ctx_end -= 1  # the value's opening quote or emphasis: "**Password:** `value`"
        elif ctx_end > 1 and text[ctx_end - 1] in " \u00a0\u202f" and text[ctx_end - 2] in "«“":
            ctx_end -= 2  # French quotes hold a space: "« VALUE »"
        else:
            break
    line_start = lower.rfind("\n", 0, ctx_end) + 1
    alone_below = None  # the value starts its line: the line above may be a bare label
    if line_start and not text[line_start:ctx_end].strip(" \t>"):
        alone_below = line_start
        # A value alone at the start of its line, below a label ("Password for the CI user (it
        # wraps):", "The hex below is the FTP password:"): the label is its context.
        label_end = line_start - 1
        if label_end > 0 and text[label_end - 1] == "\n":
            label_end -= 1  # one blank line between label and value
        colon = label_end
        while colon > 0 and text[colon - 1] in " \t*_":
            colon -= 1
        if colon > 0 and text[colon - 1] == ":":
            ctx_end = label_end
            line_start = lower.rfind("\n", 0, ctx_end) + 1
    lo = max(line_start, ctx_end - _WINDOW)
    shape = _Shape(value)
    after = start + len(value)
    shape.ends_clause = _ends_clause(text, after)
    if value.isdigit():
        # A bare number is a credential only where a system wants it typed ("wants 43698570 typed").
        typed = _TYPED_AFTER.match(lower, start + len(value))
        if 4 <= len(value) <= 12 and typed and not _YEAR.match(value) and not _TYPED_AS.match(lower, typed.end()) and (
            _OPENS_BEFORE.search(lower, lo, ctx_end) or _WANTS_BEFORE.search(lower, lo, ctx_end)
        ):
            return "Password"
    kind = _noun_kind(lower, lo, ctx_end, shape)
    if kind is not None:
        return kind
    if alone_below is not None:
        kind = _bare_label_kind(text, lower, alone_below, start, shape)
        if kind is not None:
            return kind

    def plain() -> bool:  # shaped, and not a program's name ("opens with Excel365")
        return shape.shaped and not _PRODUCT.match(value)

    if _CONJUNCTION_END.search(lower, max(lo, ctx_end - 12), ctx_end) and plain():
        m = _LOGIN_IS_USER_AND.search(lower, lo, ctx_end)
        if m is not None:
            user = m.group("user")
            loginish = any(c in user for c in "_.-@") or any(c.isdigit() for c in user)
            if shape.strong or loginish and shape.strict:
                return "Login Credentials"
    m = _CHANGED_TO_BEFORE.search(lower, lo, ctx_end)
    if m is not None and plain() and (shape.strong or m.group("noun") not in _LOOSE_NOUN and m.group("noun")[:3] != "key"):
        return "Password"
    m = _LOGIN_BEFORE.search(lower, lo, ctx_end)
    if m is not None and plain() and (m.group("user") is None or shape.strong):
        return "Login Credentials"
    if (_OPENS_BEFORE.search(lower, lo, ctx_end) or _UNLOCK_BEFORE.search(lower, lo, ctx_end)) and plain():
        return "Password"
    # The verb and its few words sit within the last 110 characters before the value.
    wants = _WANTS_BEFORE.search(lower, max(lo, ctx_end - 110), ctx_end)
    if wants is not None and not value.startswith("-") and shape.strong and plain():
        return "Password"
    m = _AS_NOUN_AFTER.match(lower, after)
    if m is not None and plain():
        noun = m.group("noun")
        if shape.strong or noun not in _LOOSE_NOUN and not noun.startswith("key"):
            return "Password"
    verb_last = _VERB_LAST_AFTER.match(lower, after) is not None
    if verb_last and _WITH_BEFORE.search(lower, lo, ctx_end) and plain():
        return "Password"
    typed = _TYPE_BEFORE.search(lower, lo, ctx_end) is not None
    if typed and _TYPE_AFTER.match(lower, after + (1 if after < len(lower) and lower[after] == " " else 0)):
        if plain():
            return "Password"
    if (typed or verb_last) and shape.strong and plain():
        # Only a strong value: "when the prompt asks for the model, type claude-3-5-sonnet" names a model.
        # "when the webserver prompts for the admin login, type VALUE"; "beim sudo will er VALUE eingetippt haben"
        if _sentence_about_a_login(lower, lo, ctx_end, value_end=after):
            return "Password"
    copula = _COPULA_BEFORE.search(lower, max(lo, ctx_end - 40), ctx_end) if shape.strong else None
    if copula is not None and plain() and not _names_other(lower, max(lo, ctx_end - 60), copula.start()):
        # "if psql asks, the answer is VALUE": a copula in a sentence about a prompt or a login (a
        # credential noun there was read above, and may have named something else: "pin ... by SHA:")
        if _sentence_about_a_login(lower, lo, ctx_end, nouns=False, value_end=after):
            return "Password"
    if ctx_end > lo and lower[ctx_end - 1] in " \t/,|":
        m = _PAIR_BEFORE.search(text, max(lo, ctx_end - 60), ctx_end)
        # Written as a pair ("admin / Sommer2024", or one that ends its clause: "admin, Sommer2024.") a
        # word and a number is a password, not a program's name.
        paired = m is not None and ("/" in m.group("sep") or shape.ends_clause)
        if m is not None and shape.shaped and (paired or not _PRODUCT.match(value)):
            user = m.group("user")
            if "@" in user:
                return "Login Credentials"
            loginish = (
                any(c in user for c in "_.-") or any(c.isdigit() for c in user) or user.isupper()
                or user.lower() in _ACCOUNT_NAMES
            )
            spaced = "/" not in m.group("sep") or " " in m.group("sep")
            # "admin/VALUE" with no spaces reads as a path unless the account is plain or a login is named
            glued = not spaced and shape.strong and (user.lower() in _ACCOUNT_NAMES or _login_nearby(lower, line_start))
            if glued:
                return "Login Credentials"
            if (
                spaced
                and (shape.strong or loginish and shape.strict)
                # a system one logs in to, named on the line: "MinIO console: jmeyer / VALUE"
                and (_login_nearby(lower, line_start) or (
                    # a system one logs in to named before the pair: "the router — admin, VALUE"
                    shape.strong or paired and user.lower() in _ACCOUNT_NAMES and shape.strict
                ) and (loginish or _THING_WORD.search(lower, line_start, ctx_end) is not None))
            ):
                return "Login Credentials"
    return None


_GLUED_PAIR = re.compile(r"[A-Za-z][\w.\-@]{1,40}[/:](?P<value>[^/:\s]{8,})")


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
            if prev is not None and not prev.group(1).endswith((".", ":", ",", ";", "]", ")", "}", ">")):
                options.append((prev.start(1), end))
        options.append((start, end))
        glued = _GLUED_PAIR.match(text, start, end)
        if glued is not None and not hash_prefixed(text[start:end]):
            options.append((glued.start("value"), end))  # "admin/VALUE", "svc:VALUE": the value after the user
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
        lo = max(lower.rfind("\n", 0, m.start()) + 1, m.start() - 120)
        pin = _PIN_NOUN.search(lower, lo, m.start())
        if pin is not None and not _about_the_credential(pin.group("qual") or ""):
            yield (m.start(), m.end(), "Password")


def _half_spans(text: str, lower: str) -> Iterator[tuple[int, int, str]]:
    """Fragments in a paragraph that names a credential and says to join its parts, scored joined."""
    if not any(word in lower for word in _HALF_LITERALS):
        return  # one C-speed pass per literal before any regex: most notes speak of no parts
    if not _HALF_WORD.search(lower) or not (_JOIN_WORD.search(lower) or _PLUS_JOIN.search(text)):
        return
    pos = 0
    for paragraph in re.split(r"\n[ \t]*\n", text):
        start = text.find(paragraph, pos)
        pos = start + len(paragraph)
        para_lower = lower[start : start + len(paragraph)]
        if len(paragraph) > 600 or not (
            _HALF_WORD.search(para_lower)
            and (_JOIN_WORD.search(para_lower) or _PLUS_JOIN.search(paragraph))
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
                short = all(e - s < 16 for s, e in part)
                # Long parts join into a key or token (a prefix-keyed one, or a long random run).
                if short and password_shaped(joined, strict=True) or (
                    all(e - s >= 8 for s, e in part) and _joined_token(joined)
                ):
                    for s, e in part:
                        yield (s, e, "Password")
                    break


_JOINED_PREFIX = re.compile(r"^(?:[a-z]{2,8}[_\-]|A(?:KIA|SIA)|AIza|xox[a-z]-|eyJ)")


def _joined_token(joined: str) -> bool:
    """Whether fragments joined read as one key or token: a vendor prefix or a long random run."""
    return len(joined) >= 20 and (_JOINED_PREFIX.match(joined) is not None or token_shaped(joined)) and (
        token_shaped(joined) or any(c.isdigit() for c in joined) and any(c.isupper() for c in joined)
    )


# A literal every word of ``_HALF_WORD`` holds.
_HALF_LITERALS = ("hal", "häl", "part", "piece", "first", "second", "chunk", "fragment", "segment", "pair", "teil",
                  "fix", "fij", "sufij",
                  "stück", "stuck", "moiti", "morceau", "mitad", "trozo")
_ORDINAL = re.compile(r"^(?:\d+(?:st|nd|rd|th|\.|er|e|º|ª)|[12]/2)$", re.I)


# A value described piece by piece in words: "the word Granite + the digits 3731", "das Wort Kiesel
# plus die Ziffern 8810", "le mot Falaise suivi des chiffres 4402", "la palabra Roca y los dígitos 12".
_WORDED_LITERALS = ("the word", "das wort", "le mot", "la palabra")  # not "word": "password" holds it
_WORDED_WORD = re.compile(
    r"(?<![\w\-])(?:the word|das wort|le mot|la palabra)[ \t]+[\"'`«“‘]?(?P<word>[^\W\d_]{3,24})"
)
_WORDED_DIGITS = re.compile(r"(?<![\w.,:/\-])\d{2,12}(?![\w:/\-]|[.,]\d)")
_WORDED_SPAN = 160  # the pieces sit within this many characters of the word


def _worded_spans(text: str, lower: str) -> Iterator[tuple[int, int, str]]:
    """A credential whose value is spelled out as a named word and a number, in the sentence that names it."""
    if not any(literal in lower for literal in _WORDED_LITERALS):
        return  # a C-speed test first: most notes describe no value in words
    for m in _WORDED_WORD.finditer(lower):
        word = text[m.start("word") : m.end("word")]
        if not word[0].isupper():
            continue  # "the word and ...": a capitalised word is a value; a lower-case one is the sentence
        digits = _WORDED_DIGITS.search(lower, m.end(), min(len(lower), m.end() + _WORDED_SPAN))
        if digits is None or any(c in ".!?\n" for c in lower[m.end() : digits.start()]):
            continue
        sentence = _sentence_start(lower, max(0, m.start() - _WORDED_SPAN), m.start())
        if not _CREDENTIAL_WORD.search(lower, sentence, m.start()):
            continue
        yield (m.start("word"), m.end("word"), "Password")
        yield (digits.start(), digits.end(), "Password")


# A passphrase written as words with spaces, after a passphrase noun: 'its master passphrase is
# "saffron ladder ninety kettle"', "decrypts with the phrase: orange whistle canyon sparrow 58",
# "s'ouvre avec la phrase secrète « le chat dort sous la pluie 47 »". Quoted, four words or more (three
# with a number); unquoted, the words must end in a number and the sentence.
_PHRASE_NOUN = (
    r"(?:master[ \-])?pass[ \-]?phrases?|phrases?[ \-](?:secr[èe]te|de[ \-]passe)|"
    r"frases?[ \-](?:secreta|de[ \-]paso|de[ \-]acceso|segreta)|pass(?:wort)?satz|merksatz|kennsatz|wachtzin|"
    r"parola[ \-]d['’]ordine|frase[ \-]senha|"
    # a bare "phrase" only as what something opens with: "decrypts with the phrase: ..."
    r"(?:(?<=with the )|(?<=using the )|(?<=avec la )|(?<=con la )|(?<=mit dem ))(?:phrase|frase|satz)"
)
_SPACED_PASSPHRASE = re.compile(
    rf"(?<![\w\-])(?:{_PHRASE_NOUN})(?![\w\-])(?P<copula>{_QUALIFIER}{_COPULA})?[ \t]*"
    r"""(?:(?P<open>["“«„`'‘][ \u00a0]?)|(?P<bare>))"""
    r"(?P<phrase>[^\W\d_][^\W\d_'’]*(?:[ \t]+[^\W\d_][^\W\d_'’]*){2,9}(?P<digits>[ \t]+\d{1,6})?)"
    # quoted: the closing quote; bare: a copula before and a number ending the sentence
    r"""(?(open)[ \u00a0]?["”»“`'’]|(?(digits)(?(copula)[.;!?]?(?:\s|$)|(?!))|(?!)))"""
)
# Words that make a quoted run a description of where the passphrase is or what it must be, not it.
_DESCRIBES = re.compile(
    r"(?<![\w\-])(?:vault|1password|keepass\w*|bitwarden|lastpass|tresor|coffre|b[óo]veda|manager|wiki|confluence|"
    r"ticket|slack|e-?mail|ask|asked|see|siehe|voir|stored|kept|saved|gespeichert|hinterlegt|stock[ée]e?|"
    r"guardad[ao]|same|usual|unchanged|rotated|policy|required|words|characters|zeichen|caract[èe]res|caracteres|"
    r"least|minimum|mindestens|moins|length|long|not|nicht|pas|no|never|nie|jamais|nunca)(?![\w\-])"
)


def _spaced_passphrase_spans(text: str, lower: str) -> Iterator[tuple[int, int, str]]:
    """Passphrases of words separated by spaces, after a passphrase noun (see ``_SPACED_PASSPHRASE``)."""
    if "phrase" not in lower and "frase" not in lower and "satz" not in lower and "ordine" not in lower:
        return
    for m in _SPACED_PASSPHRASE.finditer(lower):
        if _about_the_credential(m.group("qual") or ""):
            continue  # "the passphrase length is ...", "the phrase policy: ..."
        phrase = m.group("phrase")
        words = len(phrase.split()) - (1 if m.group("digits") else 0)
        quoted = m.group("open") is not None
        if quoted and not (words >= 4 or words >= 3 and m.group("digits")):
            continue
        if _DESCRIBES.search(phrase):
            continue
        yield (m.start("phrase"), m.end("phrase"), "Password")


def prose_spans(text: str, lower: str, lines: list[str], starts: list[int]) -> list[tuple[int, int, str]]:
    """(start, end, type) of every credential value written in prose in ``text``.

    ``lower`` is ``text`` lower-cased with the same offsets; ``lines`` and ``starts`` its lines and
    the offset each starts at.
    """
    spans = list(_candidate_spans(text, lower))
    spans.extend(_pin_spans(text, lower))
    spans.extend(_half_spans(text, lower))
    spans.extend(_worded_spans(text, lower))
    spans.extend(_spaced_passphrase_spans(text, lower))
    return spans
