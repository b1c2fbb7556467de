"""The client-detail check in the pipeline: which stores it guards, whose detail a project store may
hold, and a registry change reaching the matcher at once (issue 9 s.4)."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from stores.console_checks import what_client_detail
from stores.errors import Refused
from stores.models import JiraProject, RegistryVersion, Store, StoreKind
from stores.services import registry
from stores.services.stores import store_create
from tests import factories as f

pytestmark = pytest.mark.django_db


_paths = itertools.count(1)


def _refusal(store, writer, content, path="/solutions/notes.md"):
    """The refusal of a create with this content, or None; each call writes a fresh file next to ``path``."""
    path = path.removesuffix(".md") + f"-{next(_paths)}.md"
    try:
        f.make_memory(store, path, content, writer=writer)
    except Refused as exc:
        return exc.decision
    return None


def _version() -> int | None:
    return RegistryVersion.objects.filter(id=1).values_list("version", flat=True).first()


def test_every_store_shared_across_clients_refuses_client_detail_from_a_person_too(world):
    admin = f.person_writer(world.admin, door="console")
    shared = store_create(writer=admin, name="Team notes")
    toolset_store = Store.objects.get(toolset=world.toolset)
    for store in (world.practice, toolset_store, shared):
        decision = _refusal(store, admin, "The ACME-12 fix: rebuild the snapshot.\n", path="/notes/fix.md")
        assert decision is not None and decision.code == "client_detail", store.kind
        assert "shared across clients" in decision.message
        assert _refusal(store, admin, "Rebuild the snapshot after a replay.\n", path="/notes/ok.md") is None


def test_an_agent_store_refuses_client_detail_in_text_and_in_the_path(world):
    writer = f.agent_writer(world.agent)
    store = Store.objects.get(agent=world.agent)
    path = f"/agents/{world.agent.name}/notes.md"
    assert _refusal(store, writer, "Acme Analytics's marts are late.\n", path=path).code == "client_detail"
    assert _refusal(store, writer, "Marts are late.\n", path=f"/agents/{world.agent.name}/acme-notes.md").code == (
        "client_detail"
    )


def test_a_project_store_refuses_another_clients_detail_and_keeps_its_own(world):
    other_client = world.other_project.client
    other_client.datasets = ["othr_raw"]
    other_client.tables = ["othr_raw.orders", "events_raw.sessions"]
    other_client.save()
    world.client.datasets = ["acme_raw", "events_raw"]
    world.client.tables = ["acme_raw.orders"]
    world.client.save()
    writer = f.agent_writer(world.agent)
    store = world.project_store

    decision = _refusal(store, writer, "Join against `othr_raw.orders` for the totals.\n")
    assert decision is not None and decision.code == "client_detail"
    assert "belongs to another client" in decision.message
    assert "Other Co" not in decision.message  # the refusal does not name whose it is
    assert _refusal(store, writer, "See OTHR-7 for the same bug.\n").code == "client_detail"
    # Its own client's detail is what a project store is for.
    assert _refusal(store, writer, "Join against `acme_raw.orders`; ACME-7 has the history.\n") is None
    # events_raw is a dataset of both clients: here it is this client's own.
    assert _refusal(store, writer, "Sessions land in events_raw first.\n") is None


def test_a_project_key_renamed_reaches_the_check_at_once_even_without_save(world):
    store = Store.objects.get(agent=world.agent)
    writer = f.agent_writer(world.agent)
    path = f"/agents/{world.agent.name}/notes.md"
    assert _refusal(store, writer, "Fixed in ZEBA-12.\n", path=path) is None  # warms the matcher
    project = f.make_project("ZEBA", client=world.client)
    assert _refusal(store, writer, "Fixed in ZEBA-12.\n", path=path).code == "client_detail"
    # A rename that skips save() (another process's UPDATE, an admin bulk edit) still bumps the version.
    JiraProject.objects.filter(pk=project.pk).update(key="QUUX")
    assert _refusal(store, writer, "Fixed in QUUX-12.\n", path=path).code == "client_detail"
    assert _refusal(store, writer, "Fixed in ZEBA-12.\n", path=path) is None


def test_every_registry_change_moves_the_version_and_unrelated_edits_do_not(world):
    seen = [_version()]

    def moved() -> bool:
        seen.append(_version())
        return seen[-1] != seen[-2]

    client = registry.client_add(name="Ovenbird Foods", datasets=["ovb_raw"])
    assert moved()
    client.aliases = ["Ovenbird"]
    client.save()
    assert moved()
    project = registry.project_add(key="OVB", client=client)
    assert moved()
    project.key = "OVN"
    project.save()
    assert moved()
    JiraProject.objects.filter(pk=project.pk).update(governance_template="A template.")
    assert not moved()
    project.delete()
    assert moved()


def test_the_check_reads_one_number_per_check(world, django_assert_max_num_queries):
    what_client_detail.current_matcher()
    with django_assert_max_num_queries(1):
        what_client_detail.current_matcher()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_key_renamed_by_another_process_reaches_this_one(world):
    store = Store.objects.get(agent=world.agent)
    writer = f.agent_writer(world.agent)
    path = f"/agents/{world.agent.name}/notes.md"
    f.make_project("ZEBA", client=world.client)
    assert _refusal(store, writer, "Fixed in ZEBA-12.\n", path=path).code == "client_detail"  # cached now
    settings = connection.settings_dict
    url = (
        f"postgres://{settings['USER']}:{settings['PASSWORD'] or ''}@{settings['HOST'] or '127.0.0.1'}:"
        f"{settings['PORT'] or 5432}/{settings['NAME']}"
    )
    script = (
        "import django; django.setup()\n"
        "from stores.models import JiraProject\n"
        "JiraProject.objects.filter(key='ZEBA').update(key='QUUX')\n"
    )
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "memory_console.settings_test"}
    subprocess.run([sys.executable, "-c", script], check=True, env=env, cwd=Path(__file__).resolve().parents[2])
    assert _refusal(store, writer, "Fixed in QUUX-12.\n", path=path).code == "client_detail"
    assert _refusal(store, writer, "Fixed in ZEBA-12.\n", path=path) is None
    assert StoreKind.AGENT == store.kind
