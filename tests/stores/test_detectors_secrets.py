"""The secret detector: detect-secrets in process (prefiltered, configured once) plus our own plugins.

Every secret here is assembled at run time from fragments or random characters, so this file
itself stays clean under detect-secrets.
"""

from __future__ import annotations

import base64
import json
import random
import string

import pytest

from stores.console_checks.detectors import secrets
from stores.console_checks.detectors.secrets import SecretFinding
from tests.detection_data.labelled_sets import fuzz_texts, legitimate_lessons, secret_cases

RNG = random.Random(7)
ALNUM = string.ascii_letters + string.digits


def rand(n: int, alphabet: str = ALNUM) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(n))


def b64url(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


BEGIN, END = "-----" + "BEGIN ", "-----" + "END "
PEM = f"{BEGIN}RSA PRIVATE KEY-----\n{rand(64)}\n{rand(64)}\n{END}RSA PRIVATE KEY-----"
SAMPLE_PW = "Gr4nite" + "!" + rand(6)

# (what, text, type expected, line expected)
REFUSED = [
    ("AWS key id", f"deploy key {'AK' + 'IA'}{rand(16, string.ascii_uppercase + string.digits)}", "AWS Access Key", 1),
    ("AWS secret key", f"aws_secret_access_key = {rand(40)}", "AWS Secret Access Key", 1),
    ("GitHub token", f"lesson\nGITHUB_TOKEN={'gh' + 'p_'}{rand(36)}", "GitHub Token", 2),
    ("Slack token", f"bot uses {'xo' + 'xb-'}{RNG.randint(10**10, 10**11)}-{rand(24)}", "Slack Token", 1),
    ("Anthropic key", f"ANTHROPIC_API_KEY={'sk-' + 'ant-' + 'api03-'}{rand(90)}", "Anthropic API Key", 1),
    ("OpenAI project key", f"OPENAI_API_KEY={'sk-' + 'proj-'}{rand(100)}", "OpenAI Token", 1),
    ("Atlassian token", f"JIRA_API_TOKEN={'ATA' + 'TT3x'}{rand(150)}", "Atlassian API Token", 1),
    ("JWT", f"token {b64url({'alg': 'HS256'})}.{b64url({'sub': '42', 'iat': 1700000000})}.{rand(43)}", "JSON Web Token", 1),
    ("private key block", "key:\n" + PEM, "Private Key", 2),
    ("GCP service-account key id", f'"private_key_id": "{rand(40, "0123456789abcdef")}"', "GCP Service Account Key", 1),
    ("dbt profile password", f"```yaml\noutputs:\n  prod:\n    password: {SAMPLE_PW}\n```", "dbt Profile Password", 4),
    ("Snowflake password in env", f"export SNOWFLAKE_PASSWORD={SAMPLE_PW}", "Snowflake Password", 1),
    ("password in prose", f"The reporting user's password is {SAMPLE_PW} for now.", "Password", 1),
    ("postgres URL", f"postgres://etl:{SAMPLE_PW.replace('!', 'x')}@db:5432/app", "Database URL Password", 1),
    ("snowflake URL", f"snowflake://DBT:{rand(16)}@xy12345/ANALYTICS", "Database URL Password", 1),
    ("redshift JDBC URL", f"jdbc:redshift://loader:{rand(14)}@cluster:5439/dev", "Database URL Password", 1),
    ("Looker client secret", f"[Looker]\nclient_secret={rand(24)}", "Looker Client Secret", 2),
    ("Fivetran secret", f"FIVETRAN_API_SECRET={rand(32)}", "Fivetran API Secret", 1),
    ("Fivetran curl pair", f"curl -u {rand(16)}:{rand(32)} https://api.fivetran.com/v1/groups", "Credential Pair", 1),
    ("bearer token", f"Authorization: Bearer {rand(48)}", "Bearer Token", 1),
    ("generic api_key", f"api_key={rand(32)}", "Secret Assignment", 1),
    ("quoted high-entropy string", f"signing value '{rand(44)}'", "Base64 High Entropy String", 1),
    ("quoted keyword value", f'password = "{SAMPLE_PW}"', "Secret Keyword", 1),
    ("Stripe key", f"{'sk_' + 'live_'}{rand(24)}", "Stripe Access Key", 1),
    ("Databricks token", f"DATABRICKS_TOKEN=dapi{rand(32, '0123456789abcdef')}", "Databricks Token", 1),
]

ALLOWED = [
    "Always run dbt build --select state:modified+ before opening a PR.",
    "The password is kept in the vault as SNOWFLAKE_PASSWORD.",
    "Set token: ${ENV_VAR} in the CI config.",
    "Use {{ env_var('DBT_PASSWORD') }} in profiles.yml.",
    "password: \"{{ env_var('DBT_PASSWORD') }}\"",
    "The fix is in commit 3f9a1c2b7d8e4f5a6b7c8d9e0f1a2b3c4d5e6f7a.",
    "The seed's sha256 is 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08.",
    "api_key=<your key here>",
    "Authorization: Bearer <token>",
    "Document it as snowflake://<user>@<account>/<database>.",
    "Password: rotated quarterly by IT.",
    "The token is valid for 90 days.",
    "private_key_path: /secrets/rsa_key.p8",
    "max_tokens: 4096",
    "A public IP such as 203.0.113.10 is not a secret.",
]


@pytest.mark.parametrize(("what", "text", "kind", "line"), REFUSED, ids=[r[0] for r in REFUSED])
def test_a_secret_is_found_with_its_type_and_line(what, text, kind, line):
    assert SecretFinding(kind, line) in secrets.scan(text), secrets.scan(text)


@pytest.mark.parametrize("text", ALLOWED)
def test_lessons_that_only_mention_secrets_pass(text):
    assert secrets.scan(text) == []


def test_every_legitimate_lesson_passes():
    refused = [lesson for lesson in legitimate_lessons() if secrets.scan(lesson)]
    assert refused == []


def test_every_labelled_secret_note_is_refused():
    missed = [case.kind for case in secret_cases() if case.positive and not secrets.scan(case.text)]
    assert missed == []


def test_the_prefilter_never_drops_what_detect_secrets_finds():
    texts = [case.text for case in secret_cases()] + fuzz_texts(150)
    for text in texts:
        assert secrets.detect_secrets_scan(text) == secrets.detect_secrets_full_scan(text), text


def test_detect_secrets_is_configured_once_per_process():
    from detect_secrets.settings import get_settings

    engine = secrets._engine()
    secrets.scan("password = 'x'")
    assert secrets._engine() is engine
    assert "KeywordDetector" in get_settings().plugins
    assert "IPPublicDetector" not in get_settings().plugins  # public IPs are not secrets


def test_redact_replaces_each_value_and_keeps_the_rest_of_the_line():
    token = "gh" + "p_" + rand(36)
    text = f"CI clones with {token} nightly.\nNothing secret here."
    assert secrets.redact(text) == "CI clones with [REDACTED:GitHub Token] nightly.\nNothing secret here."


def test_redact_removes_a_whole_private_key_block():
    redacted = secrets.redact("before\n" + PEM + "\nafter")
    assert redacted == "before\n[REDACTED:Private Key]\nafter"


def test_redact_removes_a_password_from_a_database_url():
    text = f"connect with postgres://etl:{SAMPLE_PW.replace('!', 'x')}@db:5432/app today"
    redacted = secrets.redact(text)
    assert SAMPLE_PW.replace("!", "x") not in redacted
    assert redacted.startswith("connect with postgres://etl:[REDACTED:") and redacted.endswith("@db:5432/app today")


def test_redact_leaves_text_without_secrets_alone():
    text = "Use {{ env_var('DBT_PASSWORD') }} in profiles.yml.\nRun dbt build."
    assert secrets.redact(text) == text


def test_redacted_text_holds_no_secret():
    for case in secret_cases():
        if case.positive:
            assert secrets.scan(secrets.redact(case.text)) == [], case.kind


# --- Credentials in prose, known formats, placeholders (issue 9, section 2) -------------------
# Values are built here from fragments, so nothing in this file is a secret.

HEX = "0123456789abcdef"
PHRASE = "copper" + "." + "lantern" + "." + "delta" + "42"
MIXED = "Tulip" + "&" + "4471" + "qPz"
LOADER_PW = "hT7v" + "Qm2L" + "x9sW"

# (what, text, the value that must not survive redaction)
PROSE_REFUSED = [
    ("login as a user with a passphrase", f"log in as etl_runner with {PHRASE}", PHRASE),
    ("what an archive opens with", f"the archive opens with {MIXED}", MIXED),
    ("an e-mail / value pair", "reporting@client.example / " + "birch.quartz." + "ember19", "birch.quartz.ember19"),
    ("German noun with a qualifier", f"Passwort für LOADER: {LOADER_PW}", LOADER_PW),
    ("French noun and copula", f"Le mot de passe du compte reporting est {MIXED}.", MIXED),
    ("Spanish noun and copula", f"La contraseña es {PHRASE}", PHRASE),
    ("German login verb", f"Melde dich als report.user mit {MIXED} an.", MIXED),
    ("what a keystore takes", f"The keystore takes {LOADER_PW}.", LOADER_PW),
    ("typed at a prompt", f"When the prompt appears, type {MIXED} at it.", MIXED),
    ("a pair under a login line", f"Login for the warehouse:\nsvc_loader, {MIXED}", MIXED),
    ("hex after API key", "the API key is " + "3f9a1c2b" * 4, "3f9a1c2b" * 4),
    ("base64-encoded value", "The password, base64-encoded, is " + base64.b64encode(MIXED.encode()).decode(),
     base64.b64encode(MIXED.encode()).decode()),
    ("halves to join", f"The password comes in two halves: '{MIXED[:6]}' and '{MIXED[6:]}'; join them.", MIXED[6:]),
    ("wrapped across lines", f"The password is {MIXED[:8]}\n{MIXED[8:]} and nobody else needs it.", MIXED[:8]),
    ("placeholder word inside a password", "password: " + "Tr0ub4dor" + "-here!", "Tr0ub4dor-here!"),
    ("password starting with $", "The password is " + "$ecret" + "Pass99", "$ecretPass99"),
    ("Docker Hub token", "CI pushes with " + "dckr" + "_pat_" + rand(27), None),
    ("Twilio API key", "TWILIO_API_KEY=" + "S" + "K" + rand(32, HEX), None),
    ("Discord webhook", "alerts: https://discord.com/api/" + "webhooks/" + "4022217380337141900/" + rand(68), None),
    ("Datadog API key", "DATADOG_API_KEY=" + rand(32, HEX), None),
]

PROSE_ACCEPTED = [
    "the build takes 10 minutes",
    "log in with SSO, not a password",
    "fixed in commit 3f9c2e1a7b",
    "the token count limit is 8192",
    "rotate the Snowflake key in the vault, never paste it",
    "Password: <password>",
    "password: ${SNOWFLAKE_PASSWORD}",
    "password: changeme",
    "token: xxxx",
    "api_key = YOUR_API_KEY",
    "The AWS docs' example key id is " + "AKIA" + "IOSFODNN7" + "EXAMPLE" + ".",
    "Use scheme://login:" + "password" + "@host:port/schema as the template.",
    "The public key fingerprint is SHA256:" + "nThbg6kX" + "UpJWGl7E" + "1IGOCspR" + "omTxdCAR" + "LviKw6E5SY8" + ".",
    "The run id is 6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f.",
    "Das Passwort liegt im Tresor unter snowflake/prod.",
    "Le jeton expire au bout de 90 jours.",
    "El archivo se abre con Excel 2019.",
    "export FIVETRAN_API_SECRET=\"$(op read op://eng/fivetran/secret)\"",
]


@pytest.mark.parametrize(("what", "text", "value"), PROSE_REFUSED, ids=[r[0] for r in PROSE_REFUSED])
def test_a_credential_in_prose_or_a_known_format_is_refused_and_redacted(what, text, value):
    assert secrets.scan(text), what
    redacted = secrets.redact(text)
    assert "[REDACTED:" in redacted
    if value is not None:
        assert value not in redacted
    assert secrets.scan(redacted) == []


@pytest.mark.parametrize("text", PROSE_ACCEPTED)
def test_text_that_only_looks_like_a_credential_passes(text):
    assert secrets.scan(text) == []


def test_the_known_formats_come_from_the_installed_rule_set():
    from stores.console_checks.detectors import secret_formats

    assert secret_formats.rule_count() >= 400  # hundreds of provider families, none kept in this repository


@pytest.mark.parametrize(
    ("value", "placeholder"),
    [
        ("<password>", True), ("${SNOWFLAKE_PASSWORD}", True), ("changeme", True), ("xxxx", True),
        ("YOUR_API_KEY", True), ("your-token-here", True), ("[REDACTED:Password]", True),
        ("AKIA" + "IOSFODNN7" + "EXAMPLE", True), ("$API_TOKEN", True),
        ("Tr0ub4dor" + "-here!", False), ("$ecret" + "Pass99", False), ("@" + "Gr4nite99", False),
        ("(" + "Gr4nite)", False), ("example" + "Gr4nite!9", False),
    ],
)
def test_a_value_is_a_placeholder_only_when_the_whole_of_it_is_one(value, placeholder):
    from stores.console_checks.detectors.secret_values import is_placeholder

    assert is_placeholder(value) is placeholder


def test_redacting_any_labelled_secret_leaves_nothing_the_check_would_refuse():
    # Run records and people's reasons go through redact(): what scan() refuses, redact() removes.
    for case in secret_cases():
        if case.positive:
            assert secrets.scan(secrets.redact(case.text)) == [], case.kind


def test_a_refusal_names_the_line_and_never_the_value():
    from stores.console_checks.what_secrets import check_secrets

    text = f"Deploy notes.\n\nPasswort für LOADER: {LOADER_PW}\n"
    req = type("Req", (), {"content": text, "brought_path": ""})()
    decision = check_secrets(req)
    assert decision is not None
    assert decision.code == "secret_detected"
    assert "line 3" in decision.message and LOADER_PW not in decision.message
    assert LOADER_PW not in str(decision.details)


# Shapes the second round of the detector reads (issue 9 s.2): a broader credential grammar in four
# languages, value-shape scoring, whole-value placeholders, encoded, split and wrapped values. Every
# value is built here from fragments.
STRONG = "kQ" + "7@" + "zr" + "4W" + "m!"
PASSPHRASE = "orilla" + "-" + "lavanda" + "-" + "tilo" + "21"
SPKI = "MIIBIjANBgkq" + "hkiG9w0BAQEFAAOCAQ8A" + rand(60)

NEW_SHAPES_REFUSED = [
    ("noun, free qualifier, copula (de)", f"Das Passwort für den Staging-Server (Benutzer loader_prod) lautet {STRONG}.", STRONG),
    ("noun, words before the copula (en)", f"The admin account is `admin` and the password we set is {STRONG}", STRONG),
    ("noun, adjective before it (fr)", f"Nouveau mot de passe du compte dbt_svc après la rotation : {STRONG}", STRONG),
    ("noun with a clause and a comma (en)", f"If Jupyter asks for a password on the VM, it is {PASSPHRASE}", PASSPHRASE),
    ("passphrase noun (fr)", f"La phrase secrète de la clé SSH est {STRONG}", STRONG),
    ("secret noun (es)", f"Secreto del usuario de servicio: {STRONG}", STRONG),
    ("loose noun with a strong value", f"Guest Wi-Fi: Office-5G, key {STRONG}", STRONG),
    ("'pass' after a login", f"connection pg_reporting: login reporting_ro, pass {PASSPHRASE}", PASSPHRASE),
    ("credentials: user, value (es)", f"Credenciales Redshift: awsuser, {PASSPHRASE}", PASSPHRASE),
    ("login: user / value (de compound)", f"Das Metabase-Login nimmt analyst / {STRONG}", STRONG),
    ("login with user and value", f"I logged in to the cluster with looker_svc and {STRONG} today.", STRONG),
    ("typed at a prompt (es)", f"Cuando el servidor pide la contraseña, hay que escribir {PASSPHRASE}", PASSPHRASE),
    ("German verb last", f"Die Sicherung lässt sich mit {STRONG} entschlüsseln.", STRONG),
    ("value before 'as the password' (es)", f"El usuario SFTP acepta {STRONG} como contraseña.", STRONG),
    ("decrypts with (fr)", f"La sauvegarde se déchiffre avec la phrase de passe {STRONG}", STRONG),
    ("PIN with a qualifier", "PIN for the shared token kept in the safe: " + "93" + "44" + "71", "934471"),
    ("token noun and a UUID key", "Postmark server token for the reports: " + "6f530dee-7fad-48d6-b1cb-" + "5e2590e6e209",
     "6f530dee-7fad-48d6-b1cb-5e2590e6e209"),
    ("pgpass line", f".pgpass on the runner:\n*:*:reporting:reporting_ro:{STRONG}", STRONG),
    ("base64 of user:password", "creds, base64'd: " + base64.b64encode(f"looker_admin:{STRONG}".encode()).decode(),
     base64.b64encode(f"looker_admin:{STRONG}".encode()).decode()),
    ("hex after a credential noun and a clause", "The SFTP password as hex, so nobody reads it: " + STRONG.encode().hex(),
     STRONG.encode().hex()),
    ("halves in German", f"Das Kennwort besteht aus zwei Teilen: {STRONG[:5]} und {STRONG[5:]}, hintereinander.", STRONG[5:]),
    ("halves joined with +", f'Password in two parts: "{STRONG[:5]}" + "{STRONG[5:]}"', STRONG[5:]),
    ("vendor token wrapped with a trailing dash", "The key wrapped as\n  " + "glp" + "at-" + "ro9d7zx-\n  LFroxBZoxG_2C\n", None),
    ("vendor-prefixed random token", "HF_TOKEN is " + "h" + "f_" + rand(38), None),
    ("docker login password flag", f"docker login -u ci -p {STRONG} registry.example.com", STRONG),
]

NEW_SHAPES_ACCEPTED = [
    "GITLAB_TOKEN=" + "glpat-" + "X" * 20 + " in the template; fill it from the CI variables.",
    "Terraform: password = var.snowflake_password (set by the pipeline).",
    f"ALTER USER SVC_FIVETRAN SET RSA_PUBLIC_KEY='{SPKI}'; (public key only)",
    "Public key:\n" + BEGIN + "PUBLIC KEY-----\n" + SPKI[:64] + "\n" + rand(64) + "\n" + END + "PUBLIC KEY-----",
    "pip hash pin: dbt-snowflake==1.8.3 --hash=sha256:" + rand(64, HEX),
    "Terraform provider lock: h1:" + rand(43) + "= (lock file hash)",
    "The sort key is created_at; the cache key is user:123.",
    "The password hash is " + rand(64, HEX) + ".",
    "Mailgun digest emails go out at 06:00; the API key lives in the vault.",
    "The token naming convention is svc_<team>_v2.",
    "El archivo se abre con Excel365.",
    "Die Datei lässt sich mit Python3.11 öffnen.",
    "Stripe webhook event id evt_" + rand(24) + " was delivered twice.",
    "The password policy requires 12 characters and a symbol.",
    "Das Passwort muss 16 Zeichen lang sein.",
    "We pass --full-refresh on Sundays only.",
    "Login to Looker as the analyst role, then open the explore.",
    "When the prompt asks for the model, type claude-3-5-sonnet-20241022.",
    "When prompted for a region, enter eu-central-1.",
    "Pin actions by SHA: actions/checkout@" + rand(40, HEX) + ".",
]


@pytest.mark.parametrize(("what", "text", "value"), NEW_SHAPES_REFUSED, ids=[r[0] for r in NEW_SHAPES_REFUSED])
def test_a_credential_in_a_broader_shape_is_refused_and_redacted(what, text, value):
    assert secrets.scan(text), what
    redacted = secrets.redact(text)
    if value is not None:
        assert value not in redacted
    assert secrets.scan(redacted) == []


@pytest.mark.parametrize("text", NEW_SHAPES_ACCEPTED)
def test_a_look_alike_in_a_broader_shape_passes(text):
    assert secrets.scan(text) == []


@pytest.mark.parametrize(
    ("value", "strong"),
    [
        (STRONG, True), (PASSPHRASE, True), ("user:" + "123", False), ("(base64-encoded)", False),
        (rand(40, HEX), False), ("Excel" + "365", False), ("read_only", False),
    ],
)
def test_a_strong_password_shape_needs_mixed_classes_or_a_long_passphrase(value, strong):
    from stores.console_checks.detectors.secret_values import strong_password

    assert strong_password(value) is strong
