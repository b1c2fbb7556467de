"""Reads scoped to who asks. A store the reader may not see answers like one that does not exist."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q, QuerySet

from stores.access import stores_person_manages
from stores.console_checks.request import Writer
from stores.errors import NotFound
from stores.models import Memory, Promotion, Store, StoreKind
from stores.restore_window import recently_deleted


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


def stores_listed(
    writer: Writer, *, include_archived: bool = False, created_gte: datetime | None = None,
    created_lte: datetime | None = None,
) -> QuerySet[Store]:
    """The stores a list shows this caller: archived ones only when asked, within the creation bounds."""
    qs = stores_for_writer(writer)
    if not include_archived:
        qs = qs.filter(archived_at__isnull=True)
    if created_gte is not None:
        qs = qs.filter(created_at__gte=created_gte)
    if created_lte is not None:
        qs = qs.filter(created_at__lte=created_lte)
    return qs


def live_memory(store: Store, memory_id: str) -> Memory:
    """A memory of the store that is not deleted, or 404."""
    memory = live_memories(store).filter(public_id=memory_id).first()
    if memory is None:
        raise NotFound(f"No memory {memory_id} in store {store.public_id}.")
    return memory


MemoryItem = tuple[str, Memory | str]


def memory_items(
    store: Store, *, prefix: str, depth: int, limit: int, after: list | None
) -> tuple[list[MemoryItem], list | None]:
    """Memories and folder roll-ups under ``prefix`` in path order, from a keyset cursor.

    Returns (items, next_key) where each item is ("memory", Memory) or ("prefix", path).
    Paths under one folder sort together, so after a roll-up the scan jumps past the folder.
    """
    base = live_memories(store)
    if prefix != "/":
        base = base.filter(path__startswith=prefix)
    items: list[MemoryItem] = []
    floor: tuple[str, bool] | None = None  # (path, inclusive)
    if after:
        kind, key = after[0], after[1]
        floor = (key[:-1] + "0", True) if kind == "prefix" else (key, False)
    prefix_depth = len(prefix[1:].split("/")) - 1 if prefix != "/" else 0
    batch = max(limit * 2, 50)
    while len(items) < limit + 1:
        qs = base
        if floor is not None:
            qs = qs.filter(path__gte=floor[0]) if floor[1] else qs.filter(path__gt=floor[0])
        rows = list(qs.order_by("path")[:batch])
        if not rows:
            break
        jumped = False
        for memory in rows:
            below = memory.path[1:].split("/")[prefix_depth:]
            if depth == 0 or len(below) <= depth:
                items.append(("memory", memory))
                floor = (memory.path, False)
            else:
                folder = prefix + "/".join(below[:depth]) + "/"
                items.append(("prefix", folder))
                floor = (folder[:-1] + "0", True)
                jumped = True
            if len(items) >= limit + 1 or jumped:
                break
        if not jumped and len(rows) < batch:
            break
    more = len(items) > limit
    items = items[:limit]
    next_key = None
    if more and items:
        kind, value = items[-1]
        next_key = [kind, value.path if kind == "memory" else value]
    return items, next_key


VERSION_OPERATIONS = ("created", "modified", "deleted")


def store_versions(
    store: Store, *, memory_id: str | None = None, operation: str | None = None, session_id: str | None = None,
    api_key_id: str | None = None, service_account_id: str | None = None,
    created_gte: datetime | None = None, created_lte: datetime | None = None,
) -> QuerySet:
    """The store's versions (deleted memories' too), narrowed by the filters given."""
    qs = Memory.history.filter(store_id=store.pk)
    if memory_id:
        qs = qs.filter(public_id=memory_id)
    if operation:
        qs = qs.filter(operation=operation)
    if session_id:
        qs = qs.filter(run_public_id=session_id)
    if api_key_id:
        qs = qs.filter(api_key_id=api_key_id)
    if service_account_id:
        qs = qs.none()  # the console has no service accounts
    if created_gte is not None:
        qs = qs.filter(history_date__gte=created_gte)
    if created_lte is not None:
        qs = qs.filter(history_date__lte=created_lte)
    return qs


def store_version(store: Store, version_id: str):
    """One version of the store, or 404."""
    version = Memory.history.filter(store_id=store.pk, version_id=version_id).first()
    if version is None:
        raise NotFound(f"No memory version {version_id} in store {store.public_id}.")
    return version


def recently_deleted_memories(store: Store) -> QuerySet[Memory]:
    """The store's memories deleted within RECENTLY_DELETED_DAYS (restorable unless redacted)."""
    return recently_deleted(store)


def promotions_for_person(user) -> QuerySet[Promotion]:
    """The promotions this person may see: every one for console admins; for anyone else, those
    proposed from the stores they manage (an escalation contact's projects)."""
    qs = Promotion.objects.select_related("source_store", "target_store", "source_memory", "proposed_by", "landed_memory")
    if not user.is_active:
        return qs.none()
    if user.is_superuser:
        return qs
    return qs.filter(source_store__in=stores_person_manages(user))


def promotion_for_person(user, promotion_id: str) -> Promotion:
    """One promotion this person may see; NotFound otherwise, as for one that does not exist."""
    promotion = promotions_for_person(user).filter(public_id=promotion_id).first()
    if promotion is None:
        raise NotFound(f"No promotion {promotion_id}.")
    return promotion


def promotions_of_memory(memory: Memory) -> QuerySet[Promotion]:
    """The promotions proposed from this memory, or that landed as it, newest first."""
    return Promotion.objects.filter(Q(source_memory=memory) | Q(landed_memory=memory)).select_related(
        "source_store", "target_store", "source_memory", "landed_memory", "proposed_by"
    )
