"""The secret and client-detail checks on failure classes, not on single sentences (issue 9 s.2, s.4).

Each class found missed on blind text (a dash for "is", a value said to have been changed to,
a value one "tries" or "uses" at a prompt, a value read from the words after it, a value written
encoded, a key split in two, a token as a URL's user part, an Authorization scheme other than
Bearer, a hash or fingerprint that only looks random, a vendor prefix followed by words that say
it is no key, a public JSON Web Key; a common-word client name split by a hyphen, written in
another script, in a path folder, in lower case where prose writes a capital, base64 after
``key=``) has its own new cases here, worded apart from the cases that revealed it. Behaviour on
named examples: no rate. Every secret is built from pieces at run time.
"""

from __future__ import annotations

import base64
import random
import string

import pytest

from stores.console_checks.detectors import secrets
from stores.console_checks.detectors.client_detail import ClientDetailMatcher, ClientTerm
from stores.console_checks.detectors.secret_values import is_placeholder

RNG = random.Random(23)
ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"


def rand(n: int, alphabet: str = ALNUM) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(n))


MIXED = "Hv" + "3$" + "qe" + "8L" + "zt"
PHRASE = "lichen" + "." + "marble" + "." + "heron" + "64"
STRONG = "Kiln" + "#" + "Orchid" + "#" + "57" + "!"
CLASSES_REFUSED = [
    ("a dash for 'is' (en)", f"Backup box passphrase – {PHRASE}", PHRASE),
    ("a dash for 'is' (de)", f"Kennwort fürs NAS — {MIXED}", MIXED),
    ("changed to, verb first (en)", f"IT rotated the password for svc_airflow to {MIXED} on Monday.", MIXED),
    ("changed to, after the noun (es)", f"La contraseña de la cuenta reporting se cambió a {STRONG} ayer.", STRONG),
    ("changed to, after the noun (fr)", f"Le mot de passe du compte etl a été modifié en {STRONG}.", STRONG),
    ("an appositive", f"The shared password, {MIXED}, opens both dashboards.", MIXED),
    ("a compound noun (de)", f"Das Root-Kennwort der Appliance lautet {MIXED}.", MIXED),
    ("a noun ending an identifier", f"keystore_password is {STRONG} on the build agent", STRONG),
    ("a value tried at a thing (en)", f"Try {STRONG} if the keystore complains again.", STRONG),
    ("a value tried at a thing (es)", f"Intenta {STRONG}, así se abrió el almacén de claves.", STRONG),
    ("a value answering a prompt", f"gpg asks for the passphrase; answer {STRONG}", STRONG),
    ("a value used at a prompt", f"When kinit prompts, use {STRONG}.", STRONG),
    ("a value read after it (fr)", f"{STRONG} : c'est le nouveau mot de passe du portail.", STRONG),
    ("a sentence about a login after the value", f"it's {STRONG} for the grafana login now", STRONG),
    ("unlock with an object between (en)", f"To unprotect the budget workbook use {STRONG}", STRONG),
    ("unlock with an object between (de)", f"Die Freigabe entsperrt man mit {STRONG}.", STRONG),
    ("a user/value pair with a bare address", f"Creds — ops@, {STRONG}", STRONG),
    ("a current value after a qualifier", f"The SFTP password (rotated in May), current value {MIXED}", MIXED),
    ("hex of a password after a loose noun", "root pass, hex so nobody reads it: " + STRONG.encode().hex(),
     STRONG.encode().hex()),
    ("base64 of a password after its noun", "Passwort base64-kodiert: " + base64.b64encode(STRONG.encode()).decode(),
     base64.b64encode(STRONG.encode()).decode()),
    ("a key split in two long halves", "The token got cut in two: first part " + "gh" + "p_" + rand(18)
     + ", second part " + rand(18) + " — join them.", None),
    ("a session id after its noun", "Session cookie from the HAR file: " + rand(20) + "!" + rand(40), None),
    ("a routing key of hex", "The alerting routing key " + rand(32, HEX) + " goes in the monitor.", None),
    ("a user key with an upper-case prefix", "user key " + "NR" + "AK-" + rand(27, string.ascii_uppercase + string.digits),
     None),
    ("a credential word prefixing hex", "Webhook signing: token_" + rand(40, HEX), None),
    ("a PAT assignment", "JIRA_PAT=" + rand(24) + "/" + rand(20), None),
    ("a token as a URL's user part", "Error reporting DSN https://" + rand(32, HEX) + "@errors.example.io/42", None),
    ("a user/value pair written without spaces", f"Metabase root/{STRONG} still works", STRONG),
    ("a separable German verb", f"Das Archiv geht mit {PHRASE} auf.", PHRASE),
    ("a login 'using' a user and value (es)", f"Para entrar al bastión usa deploy y {STRONG}.", STRONG),
    ("another Authorization scheme", "curl -H 'Authorization: GenieKey " + rand(8, HEX) + "-" + rand(24, HEX) + "'", None),
]

CLASSES_ACCEPTED = [
    "The password — whoever needs it — is in the team vault.",
    "We changed the password policy to 14 characters.",
    "Try dbt retry if the run fails halfway.",
    "When psql prompts, use the value from the vault, never a typed one.",
    "Stored hash: $" + "2b$" + "12$" + rand(53, ALNUM + "./"),
    "Django stores pbkdf2_sha256$" + "600000$" + rand(22) + "$" + rand(43) + "= for each user.",
    "Redis cache key: orders:2024:summary",
    'ETag: "' + rand(40, HEX) + '"',
    "SSH host key fingerprint 3a:" + ":".join(rand(2, HEX) for _ in range(15)),
    "Our docs use xoxp-" + "this-is-not-a-real-token in every example.",
    'JWKS: {"kty":"RSA","e":"AQAB","kid":"sig1","n":"' + rand(120, ALNUM + "-_") + '"}',
    "The Looker pagination token is base64 of the page: " + base64.b64encode(b"page=7").decode(),
    "Server=...;Database=dw;User ID=$(DB_USER);Password=$(DB_PASSWORD);",
    "Use DATADOG_API_KEY=<datadog-api-key> in the sample .env file.",
    "The key fingerprint is SHA256:" + rand(43) + "= (compare with ssh-keygen -lf).",
    "Sources live in src/models/staging and docs/decisions/2024.",
    "Die Schlüssel der Tickets stehen groß im Commit: `OPS-2291`.",
]


@pytest.mark.parametrize(("what", "text", "value"), CLASSES_REFUSED, ids=[c[0] for c in CLASSES_REFUSED])
def test_each_class_of_credential_is_refused_and_redacted(what, text, value):
    assert secrets.scan(text), what
    redacted = secrets.redact(text)
    if value is not None:
        assert value not in redacted
    assert secrets.scan(redacted) == []


@pytest.mark.parametrize("text", CLASSES_ACCEPTED)
def test_each_class_of_look_alike_passes(text):
    assert secrets.scan(text) == []


def test_the_issue_worked_pairs_still_hold():
    refuse = [
        "log in as etl_runner with " + "copper.lantern." + "delta42",
        "the archive opens with " + "Tulip&" + "4471qPz",
        "reporting@client.example / " + "birch.quartz." + "ember19",
        "Passwort für LOADER: " + "hT7vQm2L" + "x9sW",
    ]
    accept = [
        "the build takes 10 minutes",
        "log in with SSO, not a password",
        "fixed in commit 3f9c2e1a7b",
        "the token count limit is 8192",
        "rotate the Snowflake key in the vault, never paste it",
    ]
    assert all(secrets.scan(t) for t in refuse)
    assert not any(secrets.scan(t) for t in accept)


@pytest.mark.parametrize(
    ("value", "placeholder"),
    [
        ("xoxb-" + "not-a-real-token", True),
        ("sk-" + "fake-key-for-the-docs", True),
        ("xoxb-" + "not-a-" + rand(12), False),  # a random run after the words: could be a key
    ],
)
def test_a_vendor_prefix_then_words_saying_it_is_no_key_is_a_placeholder(value, placeholder):
    assert is_placeholder(value) is placeholder


# Client detail -------------------------------------------------------------------------------

REGISTRY = [
    ClientTerm("Beacon", "client name", "Beacon"),
    ClientTerm("Beacon Foods", "client alias", "Beacon"),
    ClientTerm("Quillmark Logistics", "client name", "Quillmark Logistics"),
    ClientTerm("QML", "project key", "Quillmark Logistics"),
]


@pytest.fixture(scope="module")
def matcher():
    return ClientDetailMatcher(REGISTRY)


@pytest.mark.parametrize(
    "text",
    [
        "Note: for Bea-con the sprint board has its own columns.",  # a common-word name split, capitalised
        "B\u0435acon asked for weekly exports.",  # a Cyrillic e
        "The extracts land in /data/drops/beacon/weekly/ every Monday.",  # a folder of a path
        "QA keeps the pod honest. beacon showed me that twice.",  # lower case at a sentence start
        "trace=" + base64.b64encode(b"Quillmark Logistics").decode() + " in the header",  # base64 after key=
    ],
)
def test_a_client_name_in_each_disguise_is_found(matcher, text):
    assert matcher.scan(text), text


@pytest.mark.parametrize(
    "text",
    [
        "Put a beacon on the long-running job so people see it.",
        "The bea-con of the lighthouse is an old word game.",  # split, but written as the word
        "Exports go to /data/drops/weekly/ for every client.",
        "It works. beacons in the dashboard show each load's status.",  # a plural common noun at a start
    ],
)
def test_the_common_word_as_a_word_passes(matcher, text):
    assert matcher.scan(text) == [], text
