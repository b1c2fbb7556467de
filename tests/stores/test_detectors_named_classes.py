"""The classes the broadened checks still missed, each on named examples worded apart (issue 9 s.2, s.4).

Secret classes: a value described in words ("the word X, then the digits N"), a pgbouncer
``userlist.txt`` line, a key with a bare upper-case vendor prefix and no key word, a public key line
in another language than English. Client-detail classes: a common-word name as the subject of a
person's verb ("Orbit asked"), a name split into two common words inside a longer name ("pine crest
dental"), a name made only of common words written as the phrase ("the copper kettle"). Each
refusal has a look-alike that must pass beside it. Every secret is built from pieces at run time.
"""

from __future__ import annotations

import random
import string

import pytest

from stores.console_checks.detectors import secrets
from stores.console_checks.detectors.client_detail import ClientDetailMatcher, ClientTerm

RNG = random.Random(91)
UPPER_DIGITS = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"


def rand(n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(n))


PASSWORD = "Qz" + "8!" + "wK" + "3n" + "Te"

SECRET_REFUSED = [
    ("value in words (en)", "The bastion password: the word Cobalt, then 7719, then a hash sign.", "Cobalt"),
    ("value in words (de)", "Kennwort fürs NAS ist das Wort Tanne und danach 5530.", "Tanne"),
    ("value in words (fr)", "Mot de passe du routeur : le mot Granit puis 8824.", "Granit"),
    ("value in words (es)", "La contraseña es la palabra Cedro seguida de 3307.", "Cedro"),
    ("pgbouncer line alone", '"loader" "' + PASSWORD + '"', PASSWORD),
    ("pgbouncer line after a label", 'userlist entry: "svc_bi" "' + PASSWORD + '"', PASSWORD),
    ("pgbouncer md5 verifier", '"svc_bi" "md5' + rand(32, HEX) + '"', None),
    ("upper-case vendor prefix, no key word", "agent config: " + "NR" + "AK-" + rand(27, UPPER_DIGITS), None),
    ("upper-case prefix with a hex body", "browser snippet " + "NR" + "JS-" + rand(19, HEX), None),
]

SECRET_ACCEPTED = [
    "The password policy: a word, then four digits, then a symbol.",
    "Das Passwort besteht aus einem Wort und vier Ziffern.",
    "Pick the word Harbor for the fixture and 2024 as the year.",  # no credential named
    '"alice" "<password>"',
    '"report_ro" "${REPORT_RO_PASSWORD}"',
    '"Content-Type" "application/json"',
    'userlist.txt lines look like "user" "password"; keep the file mode 600.',
    "New Relic user keys start with NRAK- and live in the vault.",
    "REQL-" + "01HF8Z3K4M5N6P7Q8R9S0T1V2W" + " failed with a timeout (request id).",
    "SHA256-" + rand(64, HEX) + " is the wheel digest.",
    "See ORBX-12345 and DATA-99812 for the history.",
    "Öffentlicher Schlüssel: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + rand(43) + " deploy",
    "Clave pública: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + rand(43) + " ci",
]


@pytest.mark.parametrize(("what", "text", "value"), SECRET_REFUSED, ids=[c[0] for c in SECRET_REFUSED])
def test_each_missed_secret_class_is_refused_and_redacted(what, text, value):
    assert secrets.scan(text), what
    redacted = secrets.redact(text)
    if value is not None:
        assert value not in redacted
    assert secrets.scan(redacted) == []


@pytest.mark.parametrize("text", SECRET_ACCEPTED)
def test_each_look_alike_of_those_classes_passes(text):
    assert secrets.scan(text) == [], text


REGISTRY = [
    ClientTerm("Orbit", "client name", "Orbit"),
    ClientTerm("Pinecrest Dental", "client name", "Pinecrest Dental"),
    ClientTerm("Pinecrest", "client alias", "Pinecrest Dental"),
    ClientTerm("Copper Kettle", "client name", "Copper Kettle"),
]


@pytest.fixture(scope="module")
def matcher():
    return ClientDetailMatcher(REGISTRY)


@pytest.mark.parametrize(
    "text",
    [
        "Orbit asked for the pallet report to be rerun nightly.",  # a person's verb after a common word
        "orbit told us the loads were late",  # in lower case too
        "Orbit signed off the change on Friday.",
        "pine crest dental moved to the new warehouse",  # two common pieces inside a longer name
        "Copper Kettle asked for weekly stamps.",  # the phrase, capitalised as a name
        "We ship the dashboards to Copper Kettle on Mondays.",
    ],
)
def test_a_client_named_in_each_missed_class_is_found(matcher, text):
    assert matcher.scan(text), text


@pytest.mark.parametrize(
    "text",
    [
        "The satellite's orbit decays faster than the model predicted.",
        "the orbit signed distance field is computed per frame",  # a determiner: the noun, not a subject
        "A pine crest ridge shows on the elevation map.",  # two common pieces alone stay the words
        "The copper kettle on the stove whistled.",  # a name of common words, written as the phrase
        "Copper wiring and a kettle lead were in the inventory demo.",
    ],
)
def test_the_same_words_as_words_pass(matcher, text):
    assert matcher.scan(text) == [], text
