"""A password in a memory's path gets the judgement the same words get in its text, at every door.

A path is read as words (``/ - _ = .`` as spaces, the ``.md`` dropped), so "the looker password is
<value>" in a file name is refused as it is in a note: by the agent API (create, rename), a console
edit that changes only the path, and a promotion's proposal. The value is never echoed.
"""

from __future__ import annotations

import secrets as random_source
import string

import pytest

from stores.console_checks.what_secrets import scan_path
from stores.models import Memory, Promotion, Refusal
from tests import factories as f
from tests.runs.conftest import started

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

BASE = "/api/v1/memory_stores"


def mixed_password() -> str:
    """A random password of letters, digits and symbols (none of the path separators), made at run time."""
    rng = random_source.SystemRandom()
    pools = (string.ascii_lowercase, string.ascii_uppercase, string.digits, "#!@%+")
    chars = [rng.choice(pool) for pool in pools for _ in range(3)]
    rng.shuffle(chars)
    return "".join(chars)


def path_forms(pw: str) -> list[str]:
    return [
        f"/solutions/the looker password is {pw}.md",
        f"/solutions/db-password={pw}.md",
        f"/solutions/password/{pw}.md",
        f"/solutions/password-{pw}.md",
        f"/solutions/warehouse_password_{pw}.md",
    ]


def assert_refused_by_type(response, pw: str) -> str:
    assert response.status_code == 400, response.content
    body = response.json()["error"]
    assert body["details"]["error_code"] == "secret_detected", body
    message = body["message"]
    assert pw not in message
    assert "the path holds what looks like a secret, of type Password" in message
    assert "rename the file" in message
    return message


def test_a_password_in_a_created_path_is_refused_and_never_echoed(api, world):
    run = started(api, world.agent_token)
    store = world.project_store
    pw = mixed_password()
    for path in path_forms(pw):
        r = api.as_token(run["token"]).post(f"{BASE}/{store.public_id}/memories",
                                            {"path": path, "content": "# Looker\n\nA plain lesson.\n"}, format="json")
        assert_refused_by_type(r, pw)
    assert not Memory.objects.filter(store=store).exists()
    assert all(pw not in r.path and pw not in r.message for r in Refusal.objects.filter(store=store))


def test_a_rename_to_a_path_with_a_password_is_refused(api, world):
    store = world.project_store
    memory = f.make_memory(store, "/solutions/warehouse.md", "# Warehouse\n\nLoads run nightly.\n")
    pw = mixed_password()
    r = api.as_token(world.agent_token).post(f"{BASE}/{store.public_id}/memories/{memory.public_id}",
                                             {"path": f"/solutions/warehouse password {pw}.md"}, format="json")
    assert_refused_by_type(r, pw)
    # Refused for its folder first, the password is still not echoed.
    r = api.as_token(world.agent_token).post(f"{BASE}/{store.public_id}/memories/{memory.public_id}",
                                             {"path": f"/sec/warehouse password {pw}.md"}, format="json")
    assert r.status_code == 400 and r.json()["error"]["details"]["error_code"] == "path_outside_folders"
    assert pw not in r.json()["error"]["message"]
    assert Memory.objects.get(pk=memory.pk).path == "/solutions/warehouse.md"


def test_a_console_edit_changing_only_the_path_is_refused(signed_in, scene):
    pw = mixed_password()
    url = f"/console/stores/{scene.store.public_id}/memories/{scene.live.public_id}/edit/"
    data = {"path": f"/conventions/db-password={pw}.md", "content": scene.live.content, "reason": "",
            "opened_version": scene.live.head_version_id, "save": ""}
    response = signed_in("contact").post(url, data)
    assert response.status_code == 400
    body = response.content.decode()
    assert "secret_detected" in body and "rename the file" in body
    assert pw not in body.split("<form", 1)[0]  # the message above the form does not carry it
    assert Memory.objects.get(pk=scene.live.pk).path == scene.live.path
    refusal = Refusal.objects.get(store=scene.store, code="secret_detected")
    assert pw not in refusal.message and pw not in refusal.path


def test_a_promotion_to_a_path_with_a_password_is_refused(signed_in, world):
    memory = f.make_memory(world.project_store, "/conventions/incremental.md",
                           "# Incremental models\n\nUse a lookback window of two days.\n")
    pw = mixed_password()
    url = f"/console/stores/{memory.store.public_id}/memories/{memory.public_id}/promote/"
    response = signed_in("contact").post(url, {
        "target_store": world.practice.public_id, "path": f"/lessons/password-{pw}.md",
        "text": "# Incremental models\n\nUse a lookback window of two days.\n", "reason": "General.",
    })
    assert response.status_code == 400
    body = response.content.decode()
    assert "secret_detected" in body and "rename the file" in body
    assert not Promotion.objects.exists()


@pytest.mark.parametrize("path", [
    "/conventions/password-policy.md",
    "/conventions/password-rotation-2024.md",
    "/solutions/the-looker-password-is-in-the-vault.md",
    "/issues/ACME-12-password-reset.md",
    "/solutions/log-in-with-sso-not-a-password.md",
    "/conventions/password_hashing_v2.md",
    "/data/api-key-rotation.md",
])
def test_paths_about_passwords_pass(path):
    assert scan_path(path) == []
