"""A project store with one note of each kind a review finds, in ACME's store (tests/conftest.py's
world), made the way it happens: notes through the memory services, a registry entry changed and
saved (so its history keeps what was removed), a standing decision, and a set-aside text from an
agent's write that lost a race."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from stores.models import Memory, SetAside, StandingDecision
from tests import factories as f
from tests.console.conftest import make_set_aside

ORDERS_TEXT = (
    "# Orders feed\n\nThe nightly orders export lands in raw.orders at 02:00 UTC; rebuild the staging models "
    "after it lands, never before, or the counts come out short.\n"
)
DUP_A = (
    "# Incremental models\n\nUse incremental materialisation for the events model and always set a unique key "
    "so late rows merge instead of duplicating. Full refresh only on the weekend window.\n"
)
DUP_B = (
    "# Incremental models\n\nUse incremental materialisation for the events model and always set a unique key "
    "so late rows merge instead of duplicating. Full refresh only on the weekend window.\n"
    "Seen on ACME-31: the sessions model needs the same.\n"
)
DECISION_TEXT = (
    "Revenue is always reported in the client's reporting currency, converted at the daily rate of the "
    "transaction date, never at month-end rates."
)
DECISION_NOTE = (
    "# Currency\n\nRevenue is always reported in the client's reporting currency, converted at the daily rate "
    "of the transaction date.\n"
)
PLAIN_TEXT = "# Looker\n\nThe explores for finance live in the finance model file; keep joins there.\n"
SET_ASIDE_BASE = "# Freshness\n\nSources are checked for freshness every hour.\n"
SET_ASIDE_TEXT = "Watch the CRM source first.\n" + SET_ASIDE_BASE


@dataclass
class ReviewScene:
    world: object
    store: object
    orders: Memory
    dup_a: Memory
    dup_b: Memory
    currency: Memory
    plain: Memory
    freshness: Memory
    set_aside: SetAside
    decision: StandingDecision


def versions_snapshot(store) -> list[tuple]:
    """Every memory of the store with its head version and text, and every version row."""
    memories = list(Memory.objects.filter(store=store).order_by("pk").values_list(
        "public_id", "path", "content_sha256", "head_version_id", "deleted_at"))
    versions = list(Memory.history.filter(store_id=store.pk).order_by("history_id").values_list("version_id", "content"))
    set_asides = list(SetAside.objects.filter(store=store).order_by("pk").values_list("public_id", "status"))
    return [memories, versions, set_asides]


@pytest.fixture
def review_scene(world) -> ReviewScene:
    client = world.client
    client.tables = ["raw.orders", "raw.customers"]
    client.save()
    store = world.project_store
    orders = f.make_memory(store, "/conventions/orders-feed.md", ORDERS_TEXT)
    dup_a = f.make_memory(store, "/conventions/incremental.md", DUP_A)
    dup_b = f.make_memory(store, "/issues/incremental-again.md", DUP_B)
    currency = f.make_memory(store, "/conventions/currency.md", DECISION_NOTE)
    plain = f.make_memory(store, "/conventions/looker.md", PLAIN_TEXT)
    freshness = f.make_memory(store, "/conventions/freshness.md", SET_ASIDE_BASE)
    set_aside = make_set_aside(world, freshness, SET_ASIDE_TEXT)
    decision = StandingDecision.objects.create(project=world.project, title="Reporting currency", text=DECISION_TEXT)
    # raw.orders leaves the registry after the note was written.
    client.refresh_from_db()
    client.tables = ["raw.customers"]
    client._change_reason = "orders moved to the new warehouse"
    client.save()
    for memory in (orders, dup_a, dup_b, currency, plain, freshness):
        memory.refresh_from_db()
    return ReviewScene(world, store, orders, dup_a, dup_b, currency, plain, freshness, set_aside, decision)
