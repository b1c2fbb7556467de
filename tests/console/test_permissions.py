"""Who may see and do what in the console: every page and action, for console admins, contacts of
the project, contacts of another project, staff who are neither, and anonymous visitors."""

from __future__ import annotations

import pytest

from stores.models import Memory, SetAside
from stores.selectors import stores_for_person

from .conftest import ALLOWED_ROLES, ROLES

pytestmark = pytest.mark.django_db


def page_urls(scene) -> dict[str, str]:
    sid = scene.store.public_id
    live, gone = scene.live, scene.deleted
    return {
        "store": f"/console/stores/{sid}/",
        "memory": f"/console/stores/{sid}/memories/{live.public_id}/",
        "deleted memory": f"/console/stores/{sid}/memories/{gone.public_id}/",
        "version": f"/console/stores/{sid}/memories/{live.public_id}/versions/{live.head_version_id}/",
        "delete confirmation": f"/console/stores/{sid}/memories/{live.public_id}/delete/",
        "recently deleted": f"/console/stores/{sid}/deleted/",
        "redact confirmation": f"/console/stores/{sid}/deleted/{gone.public_id}/redact/",
        "set-aside text": f"/console/set-asides/{scene.set_aside.public_id}/",
    }


PAGES = [
    "store",
    "memory",
    "deleted memory",
    "version",
    "delete confirmation",
    "recently deleted",
    "redact confirmation",
    "set-aside text",
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("page", PAGES)
def test_store_pages_answer_404_to_people_who_may_not_see_the_store(signed_in, scene, role, page):
    """Admins and the project's contacts get the page; others get 404; anonymous visitors sign in first."""
    url = page_urls(scene)[page]
    response = signed_in(role).get(url)
    if role == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith("/console/login/?next=")
    elif role in ALLOWED_ROLES:
        assert response.status_code == 200
    else:
        assert response.status_code == 404
        assert scene.store.name not in response.content.decode()


@pytest.mark.parametrize("role", ROLES)
def test_memory_page_lists_only_the_stores_a_person_may_see(signed_in, world, scene, role):
    response = signed_in(role).get("/console/")
    if role == "anonymous":
        assert response.status_code == 302
        assert response["Location"] == "/console/login/?next=/console/"
        return
    assert response.status_code == 200
    body = response.content.decode()
    sees_acme = scene.store.public_id in body
    assert sees_acme == (role in ALLOWED_ROLES)
    other_store = world.other_project.store.public_id
    assert (other_store in body) == (role in ("admin", "other_contact"))
    # Agent, practice and toolset stores: admins only.
    for store in (world.agent.store, world.practice, world.toolset.store):
        assert (store.public_id in body) == (role == "admin")


@pytest.mark.parametrize("store_attr", ["agent", "practice", "toolset", "shared", "other_project"])
@pytest.mark.parametrize("role", ["admin", "contact"])
def test_contacts_see_no_store_but_their_projects(signed_in, world, role, store_attr):
    """An escalation contact gets 404 for agent, practice, toolset, shared and other projects' stores."""
    from stores.models import Store, StoreKind

    store = {
        "agent": lambda: world.agent.store,
        "practice": lambda: world.practice,
        "toolset": lambda: world.toolset.store,
        "shared": lambda: Store.objects.create(kind=StoreKind.SHARED, name="Shared notes"),
        "other_project": lambda: world.other_project.store,
    }[store_attr]()
    response = signed_in(role).get(f"/console/stores/{store.public_id}/")
    assert response.status_code == (200 if role == "admin" else 404)


def _state(scene) -> dict:
    live = Memory.objects.get(pk=scene.live.pk)
    gone = Memory.objects.get(pk=scene.deleted.pk)
    return {
        "live deleted": live.deleted_at is not None,
        "live versions": live.history.count(),
        "gone deleted": gone.deleted_at is not None,
        "gone redacted": gone.redacted_at is not None,
        "set-aside": SetAside.objects.get(pk=scene.set_aside.pk).status,
    }


ACTIONS = {
    # action: (url builder, form data, what changes when it is allowed)
    "delete": (
        lambda s: f"/console/stores/{s.store.public_id}/memories/{s.live.public_id}/delete/",
        {"reason": "wrong"},
        {"live deleted": True},
    ),
    "restore": (
        lambda s: f"/console/stores/{s.store.public_id}/deleted/{s.deleted.public_id}/restore/",
        {},
        {"gone deleted": False},
    ),
    "redact": (
        lambda s: f"/console/stores/{s.store.public_id}/deleted/{s.deleted.public_id}/redact/",
        {"confirm": "yes", "reason": "wrong time", "confirm_path": "/data/orders-feed.md"},
        {"gone redacted": True},
    ),
    "use set-aside": (
        lambda s: f"/console/set-asides/{s.set_aside.public_id}/use/",
        {"confirm": "1"},
        {"set-aside": "used"},
    ),
    "dismiss set-aside": (
        lambda s: f"/console/set-asides/{s.set_aside.public_id}/dismiss/",
        {"confirm": "1"},
        {"set-aside": "dismissed"},
    ),
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", list(ACTIONS))
def test_actions_change_nothing_for_people_who_may_not_act(signed_in, scene, role, action):
    """Admins and the project's contacts act; for anyone else the action is a 404 (or a sign-in) and
    nothing changes."""
    url_for, data, effect = ACTIONS[action]
    before = _state(scene)
    response = signed_in(role).post(url_for(scene), data)
    after = _state(scene)
    if role in ALLOWED_ROLES:
        assert response.status_code == 302, response.content.decode()[:500]
        for key, value in effect.items():
            assert after[key] == value
        if action == "use set-aside":
            assert after["live versions"] == before["live versions"] + 1
    else:
        assert response.status_code == (302 if role == "anonymous" else 404)
        if role == "anonymous":
            assert response["Location"].startswith("/console/login/")
        assert after == before


@pytest.mark.parametrize("action", list(ACTIONS))
def test_actions_refuse_get(signed_in, scene, action):
    """Every action changes state only on POST: a GET to an action URL either shows a confirmation
    page or is not allowed, and changes nothing."""
    url_for, _data, _effect = ACTIONS[action]
    before = _state(scene)
    response = signed_in("admin").get(url_for(scene))
    assert response.status_code in (200, 405)
    assert _state(scene) == before


def test_escalation_contact_grant_follows_the_project(world, scene):
    """Naming a contact grants the store at once; removing them takes it away at once."""
    from stores.services.escalation_contacts import escalation_contact_add, escalation_contact_remove
    from tests import factories as f

    newcomer = f.make_user("frank")
    assert not stores_for_person(newcomer).filter(pk=scene.store.pk).exists()
    escalation_contact_add(key=world.project.key, username="frank")
    assert stores_for_person(newcomer).filter(pk=scene.store.pk).exists()
    escalation_contact_remove(key=world.project.key, username="frank")
    assert not stores_for_person(newcomer).filter(pk=scene.store.pk).exists()
