"""The secret detector, third round (issue 9 s.2): wider prose grammar, and placeholders judged on
the whole value, documented examples and default logins included.

Every value is assembled at run time from fragments, so this file stays clean under detect-secrets.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import random
import string

import pytest

from stores.console_checks.detectors import secrets
from stores.console_checks.detectors.secret_values import default_login, forgeable_jwt, is_placeholder

RNG = random.Random(11)
ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"


def rand(n: int, alphabet: str = ALNUM) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(n))


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def jwt(key: bytes) -> str:
    head = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    body = b64url(json.dumps({"sub": "42", "name": "A Person", "iat": 1700000000}).encode())
    sig = b64url(hmac.new(key, f"{head}.{body}".encode(), hashlib.sha256).digest())
    return f"{head}.{body}.{sig}"


STRONG = "Qm7" + "#xLp" + "2Rt9"
PHRASE = "harbor" + "." + "willow" + "." + "stone" + "64"
LOWER_KEY = rand(52, "abcdefghijklmnopqrstuvwxyz234567")

# (what, text, the value (or a part of it) that must not survive redaction)
REFUSED = [
    ("value below a label, wrapped", f"Password for the replica user (wrapped in the chat):\n{STRONG[:6]}\n{STRONG[6:]}", STRONG[:6]),
    ("passphrase below a label and a blank line", f"Passphrase for the GPG key:\n\n{PHRASE}", PHRASE),
    ("hex value below a label", "The FTP password, hex-encoded:\n" + STRONG.encode().hex(), STRONG.encode().hex()),
    ("quoted login name and value", f"Log in to the test box as `admin` / `{STRONG}`", STRONG),
    ("system named beside a pair", f"MinIO console: jmeyer / {STRONG}", STRONG),
    ("what a system takes, no thing named", f"The Redis instance on the build VM takes {PHRASE} (AUTH).", PHRASE),
    ("words between the verb and the value", f"Der VPN-Client verlangt nach dem OTP noch {PHRASE}.", PHRASE),
    ("a number wanted typed", "The BIOS on the kiosk wants " + "4369" + "8570 typed at boot.", "43698570"),
    ("German separable verb at a prompt", f"Wenn snowsql nachfragt, muss man {STRONG} eintippen.", STRONG),
    ("German compound noun", f"Das Datenbankpasswort lautet {STRONG}.", STRONG),
    ("French quotes with spaces", f"Le mot de passe du compte est « {STRONG} ».", STRONG),
    ("a PAT in prose", f"Pipelines need a PAT in the header; mine is `{LOWER_KEY}`.", LOWER_KEY),
    ("a CLI login given its key", "wandb login " + rand(40, HEX), None),
    ("quoted value holding ; and ,", 'REDIS_PASSWORD="' + "a;b," + "c9" + 'Xz!q"', "c9Xz!q"),
    ("upper-case prefix with an underscore body", "key " + "NR" + "IQ-" + rand(12) + "_" + rand(19), None),
    ("a JWT signed with a key of its own", "token " + jwt(rand(32).encode()), None),
]

ACCEPTED = [
    "The keystore takes a few seconds to load.",
    "The login page takes ~3s to render under load.",
    "Password policy:\nAt least 14 characters, one digit.",
    "Token count:\n8192",
    "The public key comment is deploy@build-host-3.",
    "MinIO console: buckets / raw-events-2024",
    "The BIOS wants 2024 typed as the year.",
    "The job takes --full-refresh on Sundays.",
    "Das Datenbankpasswort liegt im Vault, nicht im Repo.",
    "After login " + rand(40, HEX) + " was the commit we rolled back to.",
    "postgres://" + "postgres:" + "postgres" + "@localhost:5432/dev is the compose default.",
    "http://" + "admin:" + "admin" + "@localhost:8080 is the image's default login.",
    "The docs show the basic auth header value " + base64.b64encode(b"user:" + b"password").decode() + ".",
    "The example key " + base64.b64encode(b"admin:" + b"admin").decode() + " is what the README uses.",
    "The docs' example token is " + jwt(b"your-256-bit-" + b"secret") + ".",
    "The example key is " + "AIzaSyA-" + "FAKE-KEY-FOR-TESTING-" + "1234567" + ".",
    "The STS docs use " + "ASIA" + "J" + "EXAMPLE" + "XEG2JICEA" + " as the key id.",
    "CF_API_KEY=[REDACTED:Secret Assignment]\nCF_API_EMAIL=ops@example.com",
]


@pytest.mark.parametrize(("what", "text", "value"), REFUSED, ids=[r[0] for r in REFUSED])
def test_a_credential_is_refused_and_redacted_whole(what, text, value):
    assert secrets.scan(text), what
    redacted = secrets.redact(text)
    assert "[REDACTED:" in redacted
    if value is not None:
        assert value not in redacted
    assert secrets.scan(redacted) == []  # records are scrubbed by what the check refuses


@pytest.mark.parametrize("text", ACCEPTED)
def test_a_look_alike_or_a_whole_placeholder_passes(text):
    assert secrets.scan(text) == []
    assert secrets.redact(text) == text


@pytest.mark.parametrize(
    ("user", "password", "default"),
    [("admin", "admin", True), ("postgres", "Postgres", True), ("user", "password", True),
     ("etl", "etl" + "2024", False), ("loader", STRONG, False), ("admin", "root", False)],
)
def test_a_default_login_is_the_user_name_as_a_plain_word_or_a_stand_in(user, password, default):
    assert default_login(user, password) is default


def test_a_jwt_is_forgeable_only_when_signed_with_a_published_key():
    assert forgeable_jwt(jwt(b"your-256-bit-" + b"secret"))
    assert not forgeable_jwt(jwt(rand(32).encode()))


@pytest.mark.parametrize(
    ("value", "placeholder"),
    [
        ("ASIA" + "J" + "EXAMPLE" + "XEG2JICEA", True),
        ("AIzaSyA-" + "FAKE-KEY-FOR-TESTING-" + "1234567", True),
        ("password-" + "1234", False),  # counted digits are filler, never a marker of their own
        ("fake-" + "1234", True),
        ("Example" + "Pass" + "9!" + "x", False),
    ],
)
def test_documented_examples_are_placeholders_only_as_whole_values(value, placeholder):
    assert is_placeholder(value) is placeholder


# Text that only looks like a secret, by class (issue 9 s.2), each beside a secret of the same shape
# that is still refused: the class is what the value is by construction, not how one note was worded.
SHA1 = rand(40, HEX)
PEM_BEGIN, PEM_END = "-----BEGIN " + "PRIVATE KEY-----", "-----END " + "PRIVATE KEY-----"
PKCS8_BODY = "MIIEvQ" + "IBADANBgkqhkiG9w0BAQEFAASC" + rand(40, ALNUM)
LOOK_ALIKE_CLASSES = [
    ("digest under a hash label", 'The baseline lists `"hashed_' + f'secret": "{SHA1}"` for profiles.yml.'),
    ("digest as a column named for it", "password_" + f"hash = '{rand(64, HEX)}'"),
    ("a template URL with capital-letter slots", "Plantilla: `mysql://" + "USUARIO:" + "CLAVE" + "@servidor:3306/tienda`."),
    ("a template URL with slots in German", "Vorlage: postgresql://" + "benutzer:" + "passwort" + "@host:5432/db"),
    ("a KMS key's resource name", "CMEK key: `projects/acme-prod/locations/europe-west2/keyRings/bq/cryptoKeys/wh-cmek`."),
    ("a Stripe object id in a pair", f"Stripe account id acct_{rand(16)} for the EU entity, acct_{rand(16)} for the US one."),
    ("an AWS resource id", f"The loader runs on i-{rand(17, HEX)} in vpc-{rand(8, HEX)}; key names are in the vault."),
    ("an ARN naming a role", "Cross-account role: arn:aws:iam::" + "739104826351" + ":role/ra-unload."),
    ("an ARN naming a secret's entry", "The password is in `arn:aws:secretsmanager:eu-west-1:" + "739104826351"
     + ":secret:prod/dbt/snowflake-" + "Q7ZxLm" + "`, not here."),
    ("a private key block with its body elided", '{"private_' + 'key": "' + PEM_BEGIN + "\\n...\\n" + PEM_END + '\\n"}'),
    ("an elided block over lines", f"The file looks like:\n{PEM_BEGIN}\n...\n{PEM_END}"),
    ("a placeholder in angle brackets with words inside",
     "aws_secret_" + "access_key = <from 1Pass" + 'word: "ClientCo unload user">'),
    ("a placeholder in Italian", 'Nel file di esempio: `password = "' + "INSERISCI" + '_QUI"`.'),
    ("a placeholder in Spanish", "contraseña: " + "tu_clave" + "_aqui"),
    ("a mapping key, not its value", "k8s manifest: `valueFrom: secretKeyRef: { name: wh-creds, key: password }`."),
    ("the next line's key is not a wrapped value", "token_ttl: 3600\nmax_tokens: 4096\nkey_rotation_days: 90"),
    ("what a sentence names an id", f"Our Looker client id is {rand(16)} (public; the secret is in the vault)."),
    ("a dated name is a label", "The ticket says the secret is `" + "rotated" + "-2024-05`, the rotation's label."),
    ("a remark in parentheses as a value", "The env file has DB_" + "PASSWORD= (empty) on purpose: IAM auth."),
    ("a key named as an id", '{"client_' + 'id": "' + rand(16) + '", "client_' + 'secret": "${SF_CLIENT_SECRET}"}'),
    ("a word of the sentence and its question mark", "The hash of the old pass" + "word was leaked? No: only user names."),
    ("a publishable key", "The publishable key pk_" + "live_" + rand(24) + " is in the page source anyway."),
    ("base64 of a JOSE header near the word token", "Base64 of the header: "
     + b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + " (no token)."),
]
SAME_SHAPE_SECRETS = [
    ("an HMAC key is no digest", "hash_" + f"key = '{SHA1}'"),
    ("a capital password beside a real login", "mysql://" + "etl_loader:" + "Q7ZX" + "LM42" + "@db:3306/shop"),
    ("a webhook path with a random segment", "slack " + "webhook" + ": https://hooks.slack.com/services/T0"
     + rand(8, string.ascii_uppercase) + "/B0" + rand(8, string.ascii_uppercase) + "/" + rand(24)),
    ("a Stripe secret key", "stripe_key = sk_" + "live_" + rand(24)),
    ("a private key block with a body", f"{PEM_BEGIN}\n{PKCS8_BODY}\n{PEM_END}"),
    ("a password holding a placeholder word", "password = " + "Hier" + "-" + "Qm7#x2"),
    ("a password after a mapping key", "password: " + STRONG),
    ("the secret beside an id", '{"client_' + 'id": "abc", "client_' + 'secret": "' + rand(32) + '"}'),
    ("a password ending in a question mark", "The pass" + "word is " + "Le4ked?"),
    ("a word and a year is a password", "The password for the kiosk is " + "Sommer" + "-2024" + "!"),
    ("a password in parentheses", "DB_" + "PASSWORD= (" + STRONG + ")"),
]


@pytest.mark.parametrize(("what", "text"), LOOK_ALIKE_CLASSES, ids=[c[0] for c in LOOK_ALIKE_CLASSES])
def test_text_that_only_looks_like_a_secret_passes(what, text):
    assert secrets.scan(text) == [], what


@pytest.mark.parametrize(("what", "text"), SAME_SHAPE_SECRETS, ids=[c[0] for c in SAME_SHAPE_SECRETS])
def test_a_secret_of_a_look_alikes_shape_is_still_refused(what, text):
    assert secrets.scan(text), what


# Passwords in prose by class, worded apart from the development cases that revealed each class.
WORDY = "Kranich" + "-" + "Mole" + "-" + "3318"
PROSE_CLASSES = [
    ("a Dutch credential noun", f"Voor de FTP-server: gebruiker ra_load, wachtwoord {WORDY}."),
    ("a Portuguese credential noun and copula", f"A senha do usuário etl_pt no Redshift é {STRONG}; só pela VPN."),
    ("an Italian credential noun", f"Per il portale: utente ra_it, parola d'ordine {WORDY}."),
    ("a Japanese noun and particle", f"検証環境のユーザー etl_qa のパスワードは {STRONG} です。"),
    ("a Chinese noun with a full-width colon", f"备份文件的解压密码：{STRONG}。"),
    ("a Korean noun and particle", f"테스트 서버 비밀번호는 {STRONG} 입니다."),
    ("halves named as prefix and suffix", "For the SFTP password, append the suffix `" + "r9P" + "zQ!` to the prefix `" + "Wq4" + "#t`."),
    ("a spaced passphrase in quotes", 'The vault\'s unlock passphrase is "' + "copper" + " meadow" + " lantern" + ' thistle".'),
    ("a spaced passphrase after a colon", "The backup decrypts with the phrase: " + "amber" + " falcon" + " river" + " 62."),
    ("a spaced French passphrase", "Le coffre s'ouvre avec la phrase secrète « " + "la lune" + " boit du" + " thé 88 »."),
    ("a word and a year beside an account", "Falls SSO hakt: admin / " + "Lerche" + "_2025" + " geht noch."),
    ("an account and its password ending the clause", "The switch in the rack — admin, " + "Tulpe" + "8812."),
    ("a Dutch token noun", "De API-" + "sleutel van de betaaldienst: " + rand(64) + "."),
    ("an Italian token noun", "Chiave " + "API del servizio: SG." + rand(22) + "." + rand(43)),
    ("a Braintree access token", "Settlement: access_" + "token$production$" + rand(16, "abcdefghijklmnopqrstuvwxyz0123456789")
     + "$" + rand(32, HEX)),
    ("an age secret key", "The sops key is AGE-" + "SECRET-KEY-1" + rand(58, string.ascii_uppercase + string.digits)),
    ("locked for editing with a value", "The sheet is locked for editing with `" + "Plan" + "2025!" + "Ops`."),
]
PROSE_LOOK_ALIKES = [
    "パスワードの長さは12文字以上にすること。",
    "密码长度至少为 12 位，每 90 天更换一次。",
    "De wachtwoordregels staan in de wiki; het wachtwoord zelf in de kluis.",
    'The passphrase is "stored in the vault".',
    "The passphrase must be at least four words long.",
    'The phrase "move fast and break things" is banned in reviews.',
    "the passphrase prompt appears twice on first run 2024.",
    "The admin, Office2019 and Teams are installed on the laptop.",
    "Fix the prefix of the table names: stg_ first, then the source.",
]


@pytest.mark.parametrize(("what", "text"), PROSE_CLASSES, ids=[c[0] for c in PROSE_CLASSES])
def test_a_password_in_prose_is_refused_by_class(what, text):
    assert secrets.scan(text), what
    assert secrets.scan(secrets.redact(text)) == []


@pytest.mark.parametrize("text", PROSE_LOOK_ALIKES)
def test_prose_about_passwords_with_no_value_passes(text):
    assert secrets.scan(text) == []
