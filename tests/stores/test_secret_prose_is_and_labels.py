"""Passwords in prose, by mechanism, in English, German, French and Spanish:

- a credential noun, a copula and a simple value that ends the clause ("... is hunter2.");
- a login named, then a password joined to it by "and"/"with" ("BI login is svc_bi and VALUE");
- a bare label line (no colon) above a value alone on its line, or in a fence ("Password\\nVALUE").

Look-alikes (times, policies, references, placeholders, words) pass. Values are built at run time.
"""

from __future__ import annotations

import secrets as random_source
import string

import pytest

from stores.console_checks.detectors import secrets

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

BASE = "/api/v1/memory_stores"


def simple() -> str:
    """A simple password: a word and a digit (no password rule's "strong" shape)."""
    return random_source.choice(["hunter", "falcon", "letmein", "tigger"]) + str(2 + random_source.randbelow(8))


def mixed() -> str:
    rng = random_source.SystemRandom()
    chars = [rng.choice(pool) for pool in (string.ascii_lowercase, string.ascii_uppercase, string.digits, "#!%@")
             for _ in range(3)]
    rng.shuffle(chars)
    return "".join(chars)


IS_SIMPLE = [
    "The admin password for the staging Looker is {v}.",
    "Das Admin-Passwort für das Staging-Looker ist {v}.",
    "Le mot de passe admin du Looker de staging est {v}.",
    "La contraseña de admin del Looker de staging es {v}.",
    "The warehouse password is `{v}`, per the runbook.",
]
LOGIN_AND = [
    "BI login is svc_bi and {v}.",
    "Der BI-Login ist svc_bi und {v}.",
    "L'identifiant BI est svc_bi et {v}.",
    "El usuario de BI es svc_bi y {v}.",
    "The BI account is svc.bi with {v}.",
]
LABELLED = [
    "Password\n{v}\n",
    "## Looker admin password\n\n{v}\n",
    "Kennwort\n```\n{v}\n```\n",
    "Mot de passe\n\n{v}\n",
    "Contraseña del servicio BI\n{v}\n",
    "BI service account password\n\n```text\n{v}\n```\n",
    "Credentials for the BI service account:\n\n    {v}\n",
    "BI service account password:\n\n```\n{v}\n```\n",
]


@pytest.mark.parametrize("template", IS_SIMPLE)
def test_a_simple_value_a_sentence_says_the_password_is(template):
    text = f"# Looker\n\nStaging dashboards refresh hourly.\n\n{template.format(v=simple())}\n"
    assert [f.type for f in secrets.scan(text)] == ["Password"], text


@pytest.mark.parametrize("template", LOGIN_AND)
def test_a_login_and_the_password_joined_to_it(template):
    assert secrets.scan(template.format(v=mixed())), template


@pytest.mark.parametrize("template", LABELLED)
def test_a_value_alone_below_its_label(template):
    assert secrets.scan(template.format(v=mixed())), template
    if "Credentials" not in template and ":" not in template:
        assert secrets.scan(template.format(v=simple())), template


@pytest.mark.parametrize("text", [
    "the build takes 10 minutes",
    "log in with SSO, not a password",
    "the password policy is 12 characters",
    "the password is in the vault",
    "The password is <your-password>.",
    "The password is ${LOOKER_PASSWORD}.",
    "The password is changeme.",
    "The password is xxxxxx1.",
    "The password hashing algorithm is argon2.",
    "The password length is 16.",
    "The password expiry is 90d.",
    "The password is stored in vault2.",
    "The password is rotated by dbt2 jobs.",
    "The service account password for Looker is managed by Okta2.",
    "Das Passwort ist im Tresor.",
    "Le mot de passe est dans le coffre.",
    "The login is SSO and MFA.",
    "The account is svc_bi and it is read-only.",
    "The login is svc_bi and the password is in the vault.",
    "User is svc_bi with read access.",
    "Password\nSee the vault entry looker/staging.\n",
    "## Passwords\nrotated monthly\n",
    "Password\n<your-password>\n",
    "Password\n********\n",
    "## Token\nTOKEN_NAME\n",
    "password reset\nstep2\n",
    "The key is utf8.",
    "The token is v2.",
])
def test_look_alikes_pass(text):
    assert secrets.scan(text) == [], text


def test_the_api_refuses_a_simple_password_in_prose_and_names_its_type(api, world):
    value = simple()
    text = f"# Looker\n\nThe admin password for the staging Looker is {value}.\n"
    r = api.as_token(world.agent_token).post(f"{BASE}/{world.project_store.public_id}/memories",
                                             {"path": "/solutions/looker.md", "content": text}, format="json")
    assert r.status_code == 400
    body = r.json()["error"]
    assert body["details"]["error_code"] == "secret_detected"
    assert "line 3 (of type Password)" in body["message"] and value not in body["message"]
