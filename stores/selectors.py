"""Reads scoped to who asks. A store the reader may not see answers like one that does not exist."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from stores.access import stores_person_manages
from stores.console_checks.request import Writer
from stores.errors import NotFound
from stores.models import Memory, Store, StoreKind


def stores_for_writer(writer: Writer) -> QuerySet[Store]:
    """Every store this agent, run or person may read (section 0 of the API reference)."""
    qs = Store.objects.select_related("project", "agent", "toolset")
    if writer.is_agent and writer.run is not None:
        # A run's token reaches exactly the stores attached when the run started.
        ids = [a["memory_store_id"] for a in writer.run.attachments or []]
        return qs.filter(public_id__in=ids)
    if writer.is_agent:
        agent = writer.agent
        project_ids = set(agent.pods.values_list("projects", flat=True)) - {None}
        return qs.filter(
            Q(agent=agent)
            | Q(kind=StoreKind.PROJECT, project_id__in=project_ids)
            | Q(kind__in=[StoreKind.PRACTICE, StoreKind.SHARED])
            | Q(kind=StoreKind.TOOLSET, toolset__projects__in=project_ids)
        ).distinct()
    if writer.is_person:
        return stores_for_person(writer.user)
    return qs.none()


def stores_for_person(user) -> QuerySet[Store]:
    """Admins see every store; escalation contacts see their projects' stores."""
    return stores_person_manages(user, Store.objects.select_related("project", "agent", "toolset"))


def store_for_writer(writer: Writer, store_id: str) -> Store:
    store = stores_for_writer(writer).filter(public_id=store_id).first()
    if store is None:
        raise NotFound(f"No memory store {store_id}.")
    return store


def live_memories(store: Store) -> QuerySet[Memory]:
    return Memory.objects.filter(store=store, deleted_at__isnull=True)
