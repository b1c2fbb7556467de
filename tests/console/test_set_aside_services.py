"""The set-aside services the console and the people's API share: use and dismiss, each once."""

from __future__ import annotations

import pytest

from stores.errors import Conflict, InvalidRequest, NotFound, Refused
from stores.models import Memory, Refusal, SetAside
from stores.services.memories import memory_delete
from stores.services.set_asides import set_aside_dismiss, set_aside_use
from tests import factories as f

pytestmark = pytest.mark.django_db


def test_use_writes_the_text_as_the_persons_version_once(world, scene):
    writer = f.person_writer(world.contact)
    used = set_aside_use(writer=writer, store=scene.store, set_aside_id=scene.set_aside.public_id)
    memory = Memory.objects.get(pk=scene.live.pk)
    assert memory.content == used.text
    assert used.resolved_version_id == memory.head_version_id
    version = memory.history.order_by("-history_id").first()
    assert version.history_change_reason == f"used set-aside text {used.public_id}"
    with pytest.raises(Conflict, match="already used by carol"):
        set_aside_use(writer=writer, store=scene.store, set_aside_id=used.public_id)
    with pytest.raises(Conflict):
        set_aside_dismiss(writer=writer, store=scene.store, set_aside_id=used.public_id)
    assert Memory.objects.get(pk=scene.live.pk).history.count() == memory.history.count()


def test_dismiss_once(world, scene):
    writer = f.person_writer(world.admin)
    dismissed = set_aside_dismiss(writer=writer, store=scene.store, set_aside_id=scene.set_aside.public_id)
    assert dismissed.status == "dismissed" and dismissed.resolved_by["name"] == "root-admin"
    assert dismissed.resolved_version_id == ""
    with pytest.raises(Conflict, match="already dismissed by root-admin"):
        set_aside_dismiss(writer=writer, store=scene.store, set_aside_id=dismissed.public_id)


def test_use_on_a_deleted_memory_says_to_restore_first(world, scene):
    memory_delete(writer=f.person_writer(world.admin), store=scene.store, memory_id=scene.live.public_id)
    with pytest.raises(InvalidRequest, match="restore it from Recently deleted first") as caught:
        set_aside_use(writer=f.person_writer(world.contact), store=scene.store, set_aside_id=scene.set_aside.public_id)
    assert caught.value.code == "memory_deleted"
    assert SetAside.objects.get(pk=scene.set_aside.pk).status == "open"


@pytest.mark.parametrize("service", [set_aside_use, set_aside_dismiss])
def test_agents_and_other_projects_contacts_are_refused_and_it_is_recorded(world, scene, service):
    for writer, code in (
        (f.agent_writer(world.agent), "people_only"),
        (f.person_writer(world.other_contact), "person_not_permitted"),  # issue 11: a person refused for their role
    ):
        with pytest.raises(Refused) as caught:
            service(writer=writer, store=scene.store, set_aside_id=scene.set_aside.public_id)
        assert caught.value.code == code
        assert Refusal.objects.filter(store=scene.store, writer_key=writer.key, code=code).exists()
    assert SetAside.objects.get(pk=scene.set_aside.pk).status == "open"


def test_a_set_aside_of_another_store_is_not_found(world, scene):
    with pytest.raises(NotFound):
        set_aside_dismiss(
            writer=f.person_writer(world.admin), store=world.other_project.store, set_aside_id=scene.set_aside.public_id
        )
