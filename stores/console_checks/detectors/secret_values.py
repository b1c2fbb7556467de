"""What a value looks like: a placeholder, or a password, passphrase or token.

Two questions every secret rule asks of the value it found, answered once here:

- ``is_placeholder``: is the *whole* value a stand-in (``<password>``, ``${SNOWFLAKE_PASSWORD}``,
  ``changeme``, ``xxxx``, ``YOUR_API_KEY``, ``{{ env_var('X') }}``, a provider's documented example
  key)? A value that merely contains a placeholder word, or starts with ``$``, ``@`` or ``(``, is
  not one: ``Tr0ub4dor-here!`` and ``$ecretPass99`` are passwords.
- ``password_shaped`` / ``token_shaped``: does the value have the shape of a credential (letters
  mixed with digits or symbols, a passphrase of words and digits such as ``maple.cinder.otter31``,
  a long high-entropy run), rather than of a word, a number, a version, a date, a path, a URL,
  an e-mail address, an identifier or a hash?
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import math
import re

__all__ = [
    "decoded_text",
    "default_login",
    "encoded_data",
    "entropy",
    "forgeable_jwt",
    "hash_prefixed",
    "hash_shaped",
    "amazon_resource_name",
    "hash_labelled",
    "is_placeholder",
    "password_shaped",
    "public_identifier",
    "public_key_material",
    "reference_end",
    "resource_name",
    "stand_in_encoding",
    "stand_in_text",
    "strong_password",
    "token_shaped",
]


def entropy(value: str) -> float:
    """Shannon entropy of ``value`` in bits per character."""
    if not value:
        return 0.0
    counts: dict[str, int] = {}
    for ch in value:
        counts[ch] = counts.get(ch, 0) + 1
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


# A reference written where a value would go, matched from the value's first character. The value
# is a placeholder only when one of these covers all of it.
_REFERENCE_AT = re.compile(
    r"""\$\{[^{}\n]{1,200}\}"""  # ${SNOWFLAKE_PASSWORD}, ${{ secrets.X }} (inner braces below)
    r"""|\$\{\{[^\n]{1,200}?\}\}"""
    r"""|\$\([^()\n]{1,300}\)"""  # $(op read op://...)
    r"""|\$(?:[A-Z_][A-Z0-9_]*|[a-z_]+)(?![A-Za-z0-9_])"""  # $API_TOKEN, $token; never $ecretPass99
    r"""|%\(\w+\)s|%[A-Z_][A-Z0-9_]*%|\$env:[A-Za-z_]\w*"""
    r"""|\{\{[^\n]{1,200}?\}\}|\{%[^\n]{1,200}?%\}|\{[A-Za-z_][\w.\-]{0,60}\}"""
    r"""|<[^<>\n]{1,80}>"""  # <password>, <your key here>
    r"""|\[[A-Za-z _:\-]{1,60}\]"""  # [REDACTED:Password], [your token]
    r"""|\([A-Za-z][A-Za-z'\-]*(?:[ \t]+[A-Za-z][A-Za-z'\-]*){0,6}\)"""  # (empty), (sensitive value): a remark
    r"""|@Microsoft\.KeyVault\([^()\n]{1,300}\)"""
    r"""|(?:op|vault|secret|secrets|ssm|sm|awssm|gcpsm|azkv)://[^\s"'`]+"""
    r"""|arn:aws:(?:secretsmanager|ssm|kms):[^\s"'`]+"""
    # A function call or lookup that fetches the value: env_var('X'), os.environ["X"], get_secret(...).
    r"""|[A-Za-z_][\w.]{0,60}\((?:[^()\n]|\([^()\n]*\)){0,200}\)"""
    r"""|(?:os\.)?environ(?:\.get)?\[[^\]\n]{1,80}\]"""
    # A YAML tag that fetches or encrypts the value: Ansible's "!vault |", CloudFormation's "!Ref X".
    r"""|!(?:vault|Ref|Sub|GetAtt|ImportValue|FindInMap|Join|Select|Split|Base64|secret|env|ENV|include|var|"""
    r"""reference|encrypted)(?![\w\-])(?:[ \t]+[|>][+\-]?|[ \t]+[^\s]{1,120})?"""
    # A dotted lookup in a config language: var.snowflake_password (Terraform), secrets.X, env.X.
    r"""|(?:var|local|locals|module|data|each|env|secrets|vars|inputs|params|settings|config|conn|context|"""
    r"""steps|needs|matrix|values|self)\.[A-Za-z_][\w\-]*(?:\.[A-Za-z_][\w\-]*|\[[^\]\n]{1,60}\])*"""
)


def reference_end(text: str, start: int) -> int | None:
    """Where a reference that starts at ``text[start]`` ends, or None if none starts there."""
    m = _REFERENCE_AT.match(text, start)
    return m.end() if m else None


# Parts a placeholder is written with ("your_api_key_here", "INSERT-TOKEN", "change-me").
_STAND_IN_PARTS = frozenset(
    "your yours my the a an insert put paste enter replace with type here goes this that real actual own "
    "api key keys token tokens secret secrets password passwords pass passwd pwd passphrase pin value id "
    "user username name client access app db database account service auth bearer value_here new old "
    "me change changeme changeit redacted placeholder dummy example sample fake notreal not test xyz abc "
    "tbd todo foo bar baz demo will work works valid invalid only do does no is it for of docs doc readme tests "
    "unit testing "
    # The same parts in the other languages notes are written in (German, French, Spanish, Italian,
    # Portuguese, Dutch): "INSERISCI_QUI", "dein_passwort_hier", "votre-cle-ici", "tu_clave_aqui".
    "hier einfugen einfuegen eintragen ersetzen dein deine ihr ihre mein meine passwort kennwort schluessel "
    "beispiel wert ici inserer insere remplacer remplacez votre vos ton mon mot de passe cle exemple valeur "
    "aqui insertar inserta poner pon reemplazar reemplaza tu su mi contrasena clave ejemplo valor qui "
    "inserisci inserire sostituisci sostituire tuo tua il la chiave esempio valore insira inserir substitua "
    "substituir seu sua senha chave exemplo invullen vervangen jouw je wachtwoord sleutel voorbeeld waarde".split()
)
# Parts that make a value a stand-in at all (without one, "api_key" alone is an identifier name).
_MARKER_PARTS = frozenset(
    "your yours my insert put paste enter replace here goes real actual own change changeme changeit "
    "redacted placeholder dummy example sample fake notreal tbd todo foo bar baz xyz abc demo testing "
    # "here", "insert", "replace", "your" and "example" in the other languages above.
    "hier einfugen einfuegen eintragen ersetzen dein deine beispiel ici inserer insere remplacer remplacez "
    "votre exemple aqui insertar inserta reemplazar reemplaza ejemplo qui inserisci inserire sostituisci "
    "sostituire tuo tua esempio insira inserir substitua substituir exemplo invullen vervangen jouw "
    "voorbeeld".split()
)
# Whole values that stand for a secret without holding one.
_STAND_IN_WORDS = frozenset(
    "password passwd passw0rd pass pwd secret token key apikey api_key changeme changeit change_me "
    "redacted placeholder dummy example sample fake notreal none null nil empty n/a na tbd todo "
    "test "
    # The same words in the other languages notes are written in (a URL's "usuario" and "clave").
    "passwort kennwort motdepasse mot_de_passe contraseña contrasena clave wachtwoord senha parola "
    # Where the value is kept, named in its place: "password: 1Password".
    "1password lastpass bitwarden keepass keepassxc keychain vault".split()
)
_FILLER = re.compile(r"^(?:x{3,}|X{3,}|\*{3,}|#{3,}|\.{3,}|…+|_{3,}|-{3,}|0{6,}|•{3,}|\?{3,})$")
# The digits documentation counts out beside stand-in words ("...-FOR-TESTING-1234567"): filler,
# never a marker on its own ("password-1234" is a weak password, not a placeholder).
_COUNTED_DIGITS = re.compile(r"^0?1234(?:5(?:6(?:7(?:8(?:90?)?)?)?)?)?$")
_PARTS = re.compile(r"[^A-Za-z0-9]+")
# The providers' documented example keys: AWS's end in EXAMPLE or EXAMPLEKEY, or spell EXAMPLE
# into an upper-case key body (a real one is random base32: seven letters spelling a word do not
# happen by chance); others spell out a run of Xs or zeros in place of the key body ("AC" + 32 "X"s
# for Twilio, "sk_live_" + "0"s).
_DOCUMENTED_EXAMPLE = re.compile(
    r"(?:EXAMPLE(?:KEY)?|[Ee]xample[Kk]ey)$|^[A-Z0-9]{0,24}EXAMPLE[A-Z0-9]{0,24}$|X{8,}|x{12,}|0{12,}|\*{6,}"
)
# Published keys that are public by design, kept as sha256 digests so this file holds no key:
# the Azure storage emulator's (Azurite's) well-known account key, the same in every install.
_PUBLISHED_KEY_DIGESTS = frozenset({"0011cc25eb4320717494d2703e8cba85743e71b500283c21c8b88147992f9059"})
_QUOTES = "\"'`"


def _published_key(v: str) -> bool:
    return len(v) >= 20 and hashlib.sha256(v.encode("utf-8", "replace")).hexdigest() in _PUBLISHED_KEY_DIGESTS


# The signing keys that JWT documentation and debuggers publish as their defaults ("your-256-bit-secret"
# for HS256, and so on): a token signed with one can be minted by anyone, so it grants nothing.
_PUBLISHED_JWT_KEYS = (b"secret", b"your-secret", b"your-256-bit-secret", b"your-384-bit-secret", b"your-512-bit-secret")
_JWT_HASHES = {"HS256": hashlib.sha256, "HS384": hashlib.sha384, "HS512": hashlib.sha512}
_JWT_SHAPE = re.compile(r"eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{16,}")


def _b64url(part: str) -> bytes:
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def forgeable_jwt(value: str) -> bool:
    """Whether ``value`` is a JSON Web Token signed with a published default key (a documentation
    example, such as the one a JWT debugger shows): anyone can mint it, so it is no secret."""
    if not _JWT_SHAPE.fullmatch(value):
        return False
    head, body, signature = value.split(".")
    try:
        alg = json.loads(_b64url(head)).get("alg")
        wanted = _b64url(signature)
    except (ValueError, AttributeError, binascii.Error):
        return False
    digest = _JWT_HASHES.get(alg) if isinstance(alg, str) else None
    if digest is None:
        return False
    signed = f"{head}.{body}".encode("ascii")
    return any(hmac.compare_digest(hmac.new(key, signed, digest).digest(), wanted) for key in _PUBLISHED_JWT_KEYS)


def is_placeholder(value: str) -> bool:
    """Whether the whole of ``value`` stands in for a secret without holding one."""
    v = value.strip().strip(_QUOTES).strip()
    if not v:
        return True
    if v.startswith("eyJ") and forgeable_jwt(v):
        return True
    end = reference_end(v, 0)
    if end is not None and end == len(v):
        return True
    if _FILLER.match(v) or _DOCUMENTED_EXAMPLE.search(v) or _published_key(v):
        return True
    lower = v.lower()
    if lower in _STAND_IN_WORDS:
        return True
    parts = [p for p in _PARTS.split(lower) if p]
    if not parts:
        return True  # only symbols: "***", "---"
    if all(p in _STAND_IN_PARTS or _FILLER.match(p) or _COUNTED_DIGITS.match(p) for p in parts) and any(
        p in _MARKER_PARTS or _FILLER.match(p) for p in parts
    ):
        return True
    # A vendor's prefix, then words saying it is no key: "xoxb-not-a-real-token-this-will-not-work".
    # Google's keys open with a fixed "AIzaSy": a vendor prefix is up to eight characters.
    rest = parts[1:]
    if len(rest) >= 3 and len(parts[0]) <= 8 and all(
        p in _STAND_IN_PARTS or _FILLER.match(p) or _COUNTED_DIGITS.match(p) for p in rest
    ) and any(
        p in _MARKER_PARTS for p in rest
    ):
        return True
    # YOURAPIKEY, yourPasswordHere, MyToken: a run of stand-in words written together.
    camel = [p.lower() for p in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", v)]
    joined = "".join(camel)
    return bool(camel) and joined == re.sub(r"[^a-z]", "", lower) and _all_stand_in(joined)


def _all_stand_in(run: str) -> bool:
    """Whether a run of letters splits into stand-in words, at least one of them a marker."""
    # reach[i]: None if run[:i] cannot be split; else whether some split of it holds a marker.
    reach: list[bool | None] = [None] * (len(run) + 1)
    reach[0] = False
    for i in range(len(run)):
        if reach[i] is None:
            continue
        for j in range(i + 1, min(len(run), i + 12) + 1):
            word = run[i:j]
            if word in _STAND_IN_PARTS:
                marked = bool(reach[i]) or word in _MARKER_PARTS
                reach[j] = marked or bool(reach[j])
    return bool(reach[len(run)])


# --------------------------------------------------------------------------------------------
# Shapes
# --------------------------------------------------------------------------------------------

_SEPARATORS = "._-+"
_EMAIL = re.compile(r"^[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+$")
_VERSION = re.compile(r"^[vV]?\d+(?:[._]\d+)+(?:[-+._]?[A-Za-z]+\d*)?$")
_DATE_TIME = re.compile(r"^\d{1,4}[-/.:]\d{1,2}(?:[-/.:T ]\d{1,4})*(?:Z|[+-]\d{2}:?\d{2})?$")
_NUMBER_UNIT = re.compile(r"^[~≈<>]?\d+(?:[.,]\d+)?(?:[A-Za-z%]{1,5}|[kKmMgGtT][bB]?)?$")
_PATH = re.compile(r"^(?:~|\.{1,2})?/|^[A-Za-z]:\\|\\\\|^\w+(?:/[\w.\-*]+)+/?$")
_FILE_NAME = re.compile(
    r"\.(?:json|p8|p12|pem|key|crt|cer|yml|yaml|txt|env|ini|cfg|conf|toml|md|sql|py|sh|csv|parquet|zip|gz|kdbx|jks)$",
    re.I,
)
_ENV_NAME = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
_IDENTIFIER = re.compile(r"^[a-z][a-z0-9]*(?:[_.\-][a-z][a-z0-9]*)*$")  # read_only, dbt_prod, etl-user
_HEX = re.compile(r"^[0-9a-fA-F]+$")
_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
# Technical words with digits that prose uses as values: "the password is base64-encoded", "sha256".
_TECH_WORD = re.compile(
    r"^(?:base\d{2}|sha\d{0,3}|md\d|utf-?\d{1,2}(?:mb\d)?|hs\d{3}|rs\d{3}|es\d{3}|aes-?\d{3}|rsa-?\d{3,4}|"
    r"ed25519|x509|pkcs\d{1,2}|oauth\d?|s3|ec2|k8s|tls\d?(?:\.\d)?|ssl\d?|ipv[46]|http[s2]?|v\d+|p\d{1,2}|"
    r"2fa|mfa|totp|[a-z]{1,4}\d{1,2})$",
    re.I,
)
_WORDS_AND_DIGITS = re.compile(
    r"^[A-Za-z]{2,}(?:[._\-+][A-Za-z]{2,})+[._\-+]?\d+$|^(?:[A-Za-z]{2,}[._\-+]){2,}\w+$"
)


# Public key material, written in place of a secret but never one: the DER header every public key
# (SubjectPublicKeyInfo: RSA, EC, Ed25519) or certificate starts with in base64, or an OpenSSH public
# key body ("ssh-ed25519 AAAAC3Nza...").
_PUBLIC_KEY_BODY = re.compile(
    r"MII[A-Za-z0-9+/]{2}jANBgkqhkiG9w0BAQEF|MIG[fb]MA0GCSqGSIb3DQEBAQUAA4G|MFkwEwYHKoZIzj0CAQ|MHYwEAYHKoZIzj0CAQ|"
    r"MCowBQYDK2V[wx]A|MII[A-Za-z0-9+/]{3,4}CCA[A-Za-z0-9+/]{2}gAwIBAgI|AAAA[A-Z]3NzaC1|AAAAE2VjZHNhLXNoYTIt"
)
# A digest named by its algorithm: "sha256:d378...", "h1:On0B...=" (Go and Terraform lock files),
# "md5-...", "sha512-..." (npm integrity).
_HASH_PREFIXED = re.compile(
    r"^(?:(?:sha\d{0,3}|md5|h1|blake2[bs]?|blake3|xxh\d*|crc32c?|sri)[:=\-][A-Za-z0-9+/=_\-:]{16,}"
    # A password hash in the modular crypt format (bcrypt "$2b$12$...", sha-crypt "$6$...", argon2,
    # scrypt, yescrypt) or Django's "pbkdf2_sha256$...": what a system stores instead of the password.
    r"|\$(?:2[abxy]?|1|5|6|7|y|gy|apr1|md5|argon2(?:id|i|d)|scrypt|pbkdf2(?:-sha\d+)?)\$[A-Za-z0-9./+=$,\-]{16,}"
    r"|(?:pbkdf2_sha\d+|argon2|bcrypt(?:_sha256)?|scrypt)\$[A-Za-z0-9./+=$,\-]{16,})$",
    re.I,
)
_HASH_LENGTHS = frozenset({32, 40, 56, 64, 96, 128})
# A package pinned to a version: dbt-snowflake==1.8.3, apache-airflow>=2.9, pkg@1.2.0.
# A reference to a version of something: actions/checkout@b4ffde6, org/image@sha256:..., repo@v2.
_AT_REFERENCE = re.compile(r"^[\w.\-]+(?:/[\w.\-]+)+@[\w.:\-]+$")
_PACKAGE_PIN = re.compile(r"^[A-Za-z][\w.\-]*(?:===?|>=|<=|~=|!=|\^|@)[vV]?\d+(?:\.[\w*]+)*(?:,.*)?$")


def public_key_material(value: str) -> bool:
    """Whether ``value`` is (the start of) a public key or certificate body: shown, never secret."""
    return bool(_PUBLIC_KEY_BODY.match(value.strip().strip(_QUOTES)))


def hash_prefixed(value: str) -> bool:
    """Whether ``value`` is a digest written with its algorithm: ``sha256:d378...``, ``h1:On0B...=``."""
    return bool(_HASH_PREFIXED.match(value.strip().strip(_QUOTES)))


def hash_shaped(value: str) -> bool:
    """Whether ``value`` reads as a digest: prefixed by its algorithm, or bare hex of a digest's length."""
    v = value.strip().strip(_QUOTES)
    return bool(_HASH_PREFIXED.match(v)) or (bool(_HEX.match(v)) and len(v) in _HASH_LENGTHS)


# A label that says the value after it is a digest: "hashed_secret", "password_hash", "sha1", "checksum".
_HASH_LABEL = re.compile(
    # "hashed_secret", "hashed-password": the digest of a secret; "password_hash", "commit_sha",
    # "sha256", "checksum": a key whose last word names a digest ("hash_key", an HMAC key, does not).
    r"(?i)(?:hashed[\w\-]{0,30}|[\w\-]{0,30}?(?:hash(?:es)?|digest|checksum|fingerprint|sha-?\d{0,3}|md5|"
    r"blake2[bs]?|integrity))[\"'`\]]{0,2}[ \t]*(?:[:=]|=>|\bis\b)?[ \t]*[\"'`]?$"
)


def hash_labelled(value: str, before: str) -> bool:
    """Whether ``value`` is a digest its label names as one: hex of a digest's length (or prefixed by
    its algorithm) right after a key or words that say hash, digest, checksum or fingerprint
    (a ``hashed_secret`` key, a ``password_hash`` column). A digest is what a system keeps instead of
    a secret: it cannot be used to log in.

    ``before`` is the text on the value's line before it (the label and its quotes).
    """
    return hash_shaped(value) and _HASH_LABEL.search(before[-60:]) is not None


# A resource name: segments joined by "/", each a word, an identifier, a number or a UUID
# ("projects/acme-prod/locations/europe-west2/keyRings/bq/cryptoKeys/warehouse-cmek"). It names where
# a key lives, never the key: a segment that reads as random (a webhook's token) makes it no name.
_SEGMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._\-]{0,80}")


def _random_segment(segment: str) -> bool:
    if _UUID.match(segment) or segment.isdigit():
        return False
    digit = any(c.isdigit() for c in segment)
    return len(segment) >= 16 and digit and _class_runs(segment) >= 6 or token_shaped(segment)


def resource_name(value: str) -> bool:
    """Whether ``value`` is the path-like name of a resource (a KMS key, a secret's entry, a bucket
    object) made of words and ids, with no random-looking segment."""
    v = value.strip().strip(_QUOTES).strip("/")
    if v.count("/") < 2 or "://" in v:
        return False
    segments = v.split("/")
    return all(_SEGMENT.fullmatch(s) for s in segments) and not any(_random_segment(s) for s in segments)


# Identifiers that a provider documents as public, not credentials: Stripe's objects ("acct_1NqZ...",
# "cus_...", "pi_...") and publishable keys ("pk_live_..."; its secret keys are "sk_", "rk_", "whsec_"), and AWS resources
# ("i-0abc...", "vpc-...", "sg-..."), each a prefix and a random body.
_PUBLIC_IDENTIFIER = re.compile(
    r"^(?:acct|cus|ch|pi|pm|py|po|in|ii|sub|si|price|prod|plan|evt|txn|tr|ba|card|src|seti|cs|cn|dp|du|"
    r"file|fee|ipi|prv|sku|cbtxn|payout|coupon|promo)_(?:(?:test|live)_)?[A-Za-z0-9]{8,40}$"
    # a publishable key: Stripe's own docs say it is meant for the browser, public by design
    r"|^pk_(?:test|live)_[A-Za-z0-9]{10,120}$"
    r"|^(?:i|vpc|subnet|sg|ami|vol|snap|eni|igw|rtb|acl|nat|eipalloc|lt|tgw|vpce|pcx|rtbassoc|fs|db)-[0-9a-f]{8,17}$"
)


# An Amazon Resource Name: "arn:aws:iam::739104826351:role/ra-unload". It names a resource (an
# account id, a role, a secret's entry), never holds its secret.
_ARN = re.compile(r"^arn:aws[\w\-]*:[\w\-]*:")


def amazon_resource_name(value: str) -> bool:
    """Whether ``value`` is an Amazon Resource Name (``arn:aws:...``)."""
    return bool(_ARN.match(value.strip().strip(_QUOTES)))


def public_identifier(value: str) -> bool:
    """Whether ``value`` is an object id a provider documents as public (see ``_PUBLIC_IDENTIFIER``)."""
    return bool(_PUBLIC_IDENTIFIER.match(value.strip().strip(_QUOTES)))


def _classes(value: str) -> tuple[bool, bool, bool, bool, bool]:
    lower = any(c.islower() for c in value)
    upper = any(c.isupper() for c in value)
    digit = any(c.isdigit() for c in value)
    symbol = any(not c.isalnum() and c not in _SEPARATORS for c in value)
    sep = any(c in _SEPARATORS for c in value)
    return lower, upper, digit, symbol, sep


# A ticket key (Jira's "DATA-412"): a project key in capitals, a hyphen, a number.
_TICKET = re.compile(r"^[A-Z][A-Z0-9]{1,9}-\d{1,7}$")
# A fingerprint or a MAC address written in colon-separated hex pairs: eb:83:4c:09:...
_COLON_HEX = re.compile(r"^(?:[0-9a-fA-F]{2}[:\-]){5,}[0-9a-fA-F]{2}$")
# A setting written whole ("DATADOG_API_KEY=<...>", "Server=...;User": the assignment rules judge
# its value), or a value elided with "...".
_SETTING_PIECE = re.compile(r"\.\.\.|…|^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+=|^[A-Za-z][A-Za-z ]{2,20}=[^;]*;")


# A name with a date in it: "rotated-2024-05", "backup_2024-05-01", "snapshot-20240501". Names are
# dated this way (rotations, snapshots, releases); a password with a year in it ends in the year alone.
_DATED_NAME = re.compile(
    r"^[a-z][a-z]*(?:[._\-][a-z]+)*[._\-](?:19|20)\d\d(?:[._\-](?:0[1-9]|1[0-2])(?:[._\-](?:0[1-9]|[12]\d|3[01]))?"
    r"|(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))$"
)


def _looks_like_something_else(v: str) -> bool:
    """A value of another kind: a URL, a path, a file name, an e-mail, a version, a date, a number."""
    return bool(
        "://" in v
        or _TICKET.match(v)
        or _COLON_HEX.match(v)
        or _SETTING_PIECE.search(v)
        or _EMAIL.match(v)
        or _PATH.search(v)
        or _FILE_NAME.search(v)
        or _VERSION.match(v)
        or _DATE_TIME.match(v)
        or _DATED_NAME.match(v)
        or _NUMBER_UNIT.match(v)
        or _ENV_NAME.match(v)
        or _UUID.match(v)
        or _PACKAGE_PIN.match(v)
        or _AT_REFERENCE.match(v)
        or _HASH_PREFIXED.match(v)
        or public_key_material(v)
        or public_identifier(v)
        or _ARN.match(v)
    )


def password_shaped(value: str, *, strict: bool = False) -> bool:
    """Whether ``value`` has the shape of a password or passphrase.

    Letters mixed with digits or symbols (``Tulip&4471qPz``, ``hT7vQm2Lx9sW``), or words joined by
    separators ending in digits (``maple.cinder.otter31``). A word, a number, an identifier
    (``read_only``), a technical word (``base64``), a version, a date, a path, an e-mail address or
    a placeholder is not. ``strict`` asks for more (used where the context is weaker: a pair of
    values next to a login rather than after a credential noun).
    """
    return _password_shaped(value.strip(_QUOTES), strict)


def _password_shaped(v: str, strict: bool) -> bool:
    # Cheap tests first: most values a note holds are words, numbers or dates. A placeholder is
    # ruled out last, only for what has a password's shape.
    if len(v) < 6 or len(v) > 128 or any(c.isspace() for c in v) or _looks_like_something_else(v):
        return False
    return _shape(v, strict) and not is_placeholder(v)


def _mixed_case(part: str) -> bool:
    return any(c.isupper() for c in part) and any(c.islower() for c in part) and not part[1:].islower()


# Data that an encoding carries which is no credential: a cursor or counter ("offset=500",
# "page:3"), a JSON document without a credential word in it.
_DATA_TEXT = re.compile(r"^[A-Za-z_]{1,20}[=:]\d{1,12}(?:[&,;][A-Za-z_]{1,20}[=:]\d{1,12})*$")
_CREDENTIAL_IN_DATA = re.compile(r"(?i)pass|pwd|secret|token|key|auth|cred")
_B64_VALUE = re.compile(r"^[A-Za-z0-9+/_\-]{8,}={0,2}$")
_HEX_VALUE = re.compile(r"^(?:[0-9a-fA-F]{2}){6,}$")


def decoded_text(value: str) -> str | None:
    """The text a base64 or hex ``value`` encodes, when it decodes to printable ASCII; else None."""
    v = value.strip().strip(_QUOTES)
    candidates = []
    if _HEX_VALUE.match(v):
        candidates.append(bytes.fromhex(v))
    if _B64_VALUE.match(v) and not _HEX.match(v):
        body = v.rstrip("=")
        if len(body) % 4 != 1:
            try:
                candidates.append(base64.b64decode(body.replace("-", "+").replace("_", "/") + "=" * (-len(body) % 4)))
            except (binascii.Error, ValueError):
                pass
    for raw in candidates:
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            continue
        if len(text) >= 4 and text.isprintable():
            return text
    return None


def encoded_data(value: str) -> bool:
    """Whether ``value`` is base64 or hex of data that holds no credential (a cursor, a JSON page, a
    stand-in such as ``user:password`` or a default login such as ``admin:admin``)."""
    text = decoded_text(value)
    if text is None:
        return False
    if _DATA_TEXT.match(text) or stand_in_text(text):
        return True
    return text.lstrip().startswith(("{", "[")) and not _CREDENTIAL_IN_DATA.search(text)


# A login's default password is its user name, a plain word: admin/admin, postgres/postgres, guest/guest.
_PLAIN_WORD = re.compile(r"[A-Za-z][A-Za-z_\-]{0,40}")
_LOGIN_PAIR = re.compile(r"(?P<user>[\w.@+\-]{1,64}):(?P<password>\S{1,128})")


# A slot of a template written in capitals, in any language: USER, PASSWORD, USUARIO, CLAVE, DB_PASS.
_CAPITAL_SLOT = re.compile(r"[A-Z][A-Z_]{1,40}")


def default_login(user: str, password: str) -> bool:
    """Whether ``password`` is no secret of ``user``'s: a stand-in ("password", "<pw>"), the user
    name itself written as a plain word, as software ships its default logins (``admin:admin``), or
    both written as the capital-letter slots of a template (``USUARIO:CLAVE``)."""
    if is_placeholder(password):
        return True
    if _CAPITAL_SLOT.fullmatch(password) and (_CAPITAL_SLOT.fullmatch(user) or is_placeholder(user)):
        return True  # a word in capitals is how a template names what goes there, in every language
    return password.casefold() == user.casefold() and bool(_PLAIN_WORD.fullmatch(password))


def stand_in_text(text: str) -> bool:
    """Whether a decoded text is a stand-in: a placeholder, or a ``user:password`` pair whose
    password is a stand-in or the default (``dXNlcjpwYXNzd29yZA==`` is "user:password")."""
    text = text.strip()
    m = _LOGIN_PAIR.fullmatch(text)
    if m is not None:
        return default_login(m.group("user"), m.group("password"))
    return is_placeholder(text)


def stand_in_encoding(value: str) -> bool:
    """Whether ``value`` is base64 or hex of a stand-in text (see ``stand_in_text``)."""
    # Stand-ins are short ("user:password" is 20 characters encoded): longer values are not tried.
    text = decoded_text(value) if 8 <= len(value) <= 64 else None
    return text is not None and stand_in_text(text)


def _shape(v: str, strict: bool) -> bool:
    lower, upper, digit, symbol, sep = _classes(v)
    letters = lower or upper
    if not letters:
        return False  # digits and punctuation only: a number, a date, an id
    parts = [p for p in re.split(r"[._\-+]", v) if p]
    # A technical word is written in one case ("sha256", "HS256"); "UvWO2" has an inner capital.
    if all(_TECH_WORD.match(p) and not _mixed_case(p) or p.isalpha() for p in parts) and not symbol:
        # Words and technical words only ("base64-encoded", "read_only", "Tulip-Orange"): no digit run of its own.
        if not (digit and _WORDS_AND_DIGITS.match(v)):
            return False
    if _WORDS_AND_DIGITS.match(v) and digit:
        return True  # a passphrase: maple.cinder.otter31
    if _IDENTIFIER.match(v) and not digit:
        return False
    if _HEX.match(v) and not strict:
        return len(v) >= 8 and digit and any(c.isalpha() for c in v)
    kinds = sum((digit, symbol, upper and lower))
    if strict:
        return kinds >= 2 or (digit and symbol) or (digit and len(v) >= 10 and entropy(v) >= 3.0)
    if digit and not symbol and not (upper and lower):
        # letters and digits in one case: "etl2024" or "snowflake1" are weak passwords, "python3" a word
        return len(v) >= 8 and sum(c.isdigit() for c in v) >= 2 and entropy(v) >= 2.5
    if upper and lower and not digit and not symbol:
        # Mixed case alone: an inner capital after a lower-case letter, not Title Case words.
        return (
            bool(re.search(r"[a-z][A-Z]", v))
            and not re.fullmatch(r"(?:[A-Z][a-z]+)+", v)
            or len(v) >= 12
            and entropy(v) >= 3.5
        )
    return kinds >= 1


def _class_runs(value: str) -> int:
    """How many runs of one character class (lower, upper, digit, other) ``value`` is made of."""
    runs, last = 0, None
    for c in value:
        kind = "l" if c.islower() else "u" if c.isupper() else "d" if c.isdigit() else "s"
        if kind != last:
            runs, last = runs + 1, kind
    return runs


# A cache key, a path of segments or a namespaced id: each segment all letters or all digits.
_NAMESPACED = re.compile(r"^(?:[A-Za-z]+|\d+)(?:[:/](?:[A-Za-z]+|\d+))+$")


def strong_password(value: str) -> bool:
    """Whether ``value`` is shaped so like a password that a weak context suffices: three of lower,
    upper, digit and symbol in eight or more characters (``kCI@0729$lm0R``), or a passphrase of three
    or more words with digits (``orilla-lavanda-tilo21``). Hex (hashes, SHAs) never is.
    """
    v = value.strip(_QUOTES)
    if len(v) < 8 or not password_shaped(v, strict=True) or _HEX.match(v):
        return False
    v = v.strip("()[]{}<>")  # brackets around a word ("(base64-encoded)") are prose, not symbols of a password
    if _NAMESPACED.match(v):
        return False  # "user:123:orders", "orders/2024/05": a key made of words and numbers, not a password
    lower, upper, digit, symbol, _sep = _classes(v)
    if sum((lower, upper, digit, symbol)) >= 3 and _class_runs(v) >= 4:
        return True  # and mixed through the value, not "user:123" (a word, a colon, a number)
    words = [p for p in re.split(r"[._\-+]", v) if re.match(r"[A-Za-z]{3,}", p)]
    return digit and len(words) >= 3 and bool(_WORDS_AND_DIGITS.match(v))


def simple_password(value: str) -> bool:
    """Whether ``value`` is a password too simple for ``password_shaped`` but no word either: letters
    with a digit or a symbol, five or more characters (``hunter2``, ``letmein!``, ``user123``).

    Only for a value a sentence says a credential *is* ("the password is hunter2."): anywhere else
    such a value is a program's name (``python3``) or an id. A technical word (``sha256``,
    ``base64``), a version, a number with its unit, a path or a placeholder is not one.
    """
    v = value.strip(_QUOTES).strip("()[]{}<>")
    if not 5 <= len(v) <= 64 or any(c.isspace() for c in v) or _looks_like_something_else(v):
        return False
    lower, upper, digit, symbol, _sep = _classes(v)
    if not (lower or upper) or not (digit or symbol) or len({c.lower() for c in v if c.isalpha()}) < 2:
        return False  # "xxxxxx1": a filler with a digit
    parts = [p for p in re.split(r"[._\-+]", v) if p]
    if all(_TECH_WORD.match(p) or p.isalpha() or p.isdigit() for p in parts) and not symbol and len(parts) > 1:
        return False  # "base64-encoded", "utf-8": words and technical words
    if len(parts) == 1 and _TECH_WORD.match(v):
        return False
    return not is_placeholder(v)


def token_shaped(value: str) -> bool:
    """Whether ``value`` looks like a key or token: a long, high-entropy run of hex or base64."""
    v = value.strip(_QUOTES).rstrip("=")
    if len(v) < 16 or is_placeholder(value) or _looks_like_something_else(v) or _UUID.match(v):
        return False
    if not re.fullmatch(r"[A-Za-z0-9+/_\-.~]+", v):
        return False
    lower, upper, digit, _symbol, _sep = _classes(v)
    if _HEX.match(v):
        return len(v) >= 32 and digit and entropy(v) >= 3.0
    if not digit and not (upper and lower):
        return False
    return (digit and (upper or lower)) and entropy(v) >= 3.5 and len(v) >= 20 or entropy(v) >= 4.0
