"""A refusal is recorded once, at the outermost boundary, whatever the caller's transaction depth.

The services nest (using a set-aside text updates the memory inside the set-aside's transaction)
and callers hold their own transactions (an import, a test, a task). Neither changes whether the
refusal is recorded, nor how many times.
"""

from __future__ import annotations

from contextlib import nullcontext

import pytest
from django.db import connection, transaction

from stores.errors import Refused
from stores.models import Memory, Refusal, SetAside
from stores.services.memories import memory_update
from stores.services.set_asides import set_aside_use
from tests import factories as f
from tests.console.conftest import make_set_aside

pytestmark = pytest.mark.django_db(transaction=True)


def _refused_update(world, memory: Memory) -> None:
    """An update the who-check refuses: the agent is in none of the project's pods."""
    with pytest.raises(Refused):
        memory_update(
            writer=f.agent_writer(world.outsider), store=memory.store, memory_id=memory.public_id,
            content="Rewritten by an outsider.\n",
        )


def test_a_refusal_is_recorded_once_at_every_depth_of_the_callers_transaction(world):
    memory = f.make_memory(world.project_store, "/conventions/naming.md", "Tables are snake_case.\n")
    assert not connection.in_atomic_block
    _refused_update(world, memory)  # no transaction around it
    with transaction.atomic():  # a caller's transaction
        _refused_update(world, memory)
    with transaction.atomic(), transaction.atomic(), transaction.atomic():  # a caller three deep
        _refused_update(world, memory)
    refusal = Refusal.objects.get(store=world.project_store, code="not_in_pod_or_assigned")
    assert refusal.times == 3
    assert Memory.objects.get(pk=memory.pk).content == "Tables are snake_case.\n"


def test_a_refusal_inside_a_nested_service_is_recorded_once_and_survives_the_outer_rollback(world):
    """set_aside_use runs memory_update inside its own transaction; the refusal leaves through both."""
    memory = f.make_memory(world.project_store, "/issues/late.md", "The file lands late.\n")
    kept = make_set_aside(world, memory, "The file lands late on Mondays.\n")
    before = Memory.history.filter(id=memory.pk).count()
    outsider = f.person_writer(world.other_contact)  # a contact of another project only
    for depth in (0, 1, 2):
        with transaction.atomic() if depth else nullcontext():
            with transaction.atomic() if depth > 1 else nullcontext():
                with pytest.raises(Refused) as exc:
                    set_aside_use(writer=outsider, store=memory.store, set_aside_id=kept.public_id)
        assert exc.value.code == "person_not_permitted"  # issue 11: a person refused for their role
    refusal = Refusal.objects.get(store=world.project_store, code="person_not_permitted")
    assert refusal.times == 3 and refusal.operation == "set_aside_use"
    # The outer transaction rolled back: the set-aside is still open and no version was written.
    assert SetAside.objects.get(pk=kept.pk).status == "open"
    assert Memory.history.filter(id=memory.pk).count() == before


def test_a_stale_update_in_a_callers_transaction_keeps_its_text_and_its_refusal(world):
    memory = f.make_memory(world.project_store, "/data/orders.md", "Orders arrive hourly.\n")
    writer = f.agent_writer(world.agent)
    base = memory.content_sha256
    memory_update(writer=writer, store=memory.store, memory_id=memory.public_id, content="Hourly, from 06:00.\n",
                  base_sha256=base)
    with transaction.atomic(), transaction.atomic():
        with pytest.raises(Refused) as exc:
            memory_update(writer=writer, store=memory.store, memory_id=memory.public_id,
                          content="Orders arrive every 30 minutes.\n", base_sha256=base)
    assert exc.value.code == "stale_base"
    kept = SetAside.objects.get(memory=memory)
    assert exc.value.details["set_aside_id"] == kept.public_id and kept.text == "Orders arrive every 30 minutes.\n"
    assert Refusal.objects.get(store=memory.store, code="stale_base").times == 1
