"""The secret detector: detect-secrets in process (prefiltered, configured once) plus our own plugins.

Every secret here is assembled at run time from fragments or random characters, so this file
itself stays clean under detect-secrets.
"""

from __future__ import annotations

import base64
import json
import random
import string
import time

import pytest

from stores.console_checks.detectors import secrets
from stores.console_checks.detectors.secrets import SecretFinding
from tests.detection_data.labelled_sets import fuzz_texts, legitimate_lessons, padded_note, secret_cases

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


def test_scanning_is_at_least_five_times_faster_than_detect_secrets_own_scan():
    rng = random.Random(3)
    positives = [c.text for c in secret_cases() if c.positive]
    notes = [padded_note(rng, rng.choice(positives)) for _ in range(20)]
    secrets.scan(notes[0])

    def best(fn) -> float:
        times = []
        for _ in range(5):
            started = time.perf_counter()
            for note in notes:
                fn(note)
            times.append(time.perf_counter() - started)
        return min(times)

    assert best(secrets.scan) <= 0.2 * best(secrets.detect_secrets_full_scan)


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
