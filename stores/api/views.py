"""The agent API: memory stores, memories and versions, compatible with Anthropic's.

Views parse, call one selector or service, and render. Nothing here decides.
"""

from __future__ import annotations

from typing import Any

from rest_framework.response import Response
from rest_framework.views import APIView

from stores import selectors
from stores.errors import InvalidRequest, NotFound
from stores.models import Memory, Store
from stores.paths import prefix_problem
from stores.services import memories as memory_services
from stores.services import redaction
from stores.services import stores as store_services

from .pagination import (
    decode_cursor,
    newest_first_page,
    page,
    query_bool,
    query_datetime,
    query_limit,
    query_view,
    query_view_and_limit,
)
from .representations import memory_json, prefix_json, store_json, version_json

SHA_HEX = set("0123456789abcdef")


def _string_field(data: dict, name: str, *, required: bool = False) -> Any:
    value = data.get(name)
    if value is None:
        if required:
            raise InvalidRequest(f"`{name}` is required.")
        return None
    if not isinstance(value, str):
        raise InvalidRequest(f"`{name}` must be a string.")
    return value


def _sha_param(value: Any, name: str) -> str:
    if not isinstance(value, str) or len(value) != 64 or not set(value) <= SHA_HEX:
        raise InvalidRequest(f"`{name}` must be 64 lowercase hexadecimal characters (a SHA-256).")
    return value


class ApiView(APIView):
    def initial(self, request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        # No id holds NUL and PostgreSQL text cannot: answer here instead of failing in the database.
        if any("\x00" in str(value) for value in kwargs.values()):
            raise NotFound("No such object: the id in the URL holds a NUL character.")
        if any("\x00" in value for _, values in request.query_params.lists() for value in values):
            raise InvalidRequest("A query parameter holds a NUL character (U+0000); remove it.")

    @property
    def writer(self):
        return self.request.auth

    def store(self, store_id: str) -> Store:
        return selectors.store_for_writer(self.writer, store_id)


class StoreListView(ApiView):
    def get(self, request):
        params = request.query_params
        limit = query_limit(params)
        qs = selectors.stores_for_writer(self.writer)
        if not query_bool(params, "include_archived"):
            qs = qs.filter(archived_at__isnull=True)
        if (gte := query_datetime(params, "created_at[gte]")) is not None:
            qs = qs.filter(created_at__gte=gte)
        if (lte := query_datetime(params, "created_at[lte]")) is not None:
            qs = qs.filter(created_at__lte=lte)
        rows, next_key = newest_first_page(qs, params, time_field="created_at", limit=limit)
        return Response(page([store_json(s) for s in rows], next_key))

    def post(self, request):
        data = request.data
        store = store_services.store_create(
            writer=self.writer,
            name=data.get("name"),
            description=data.get("description", ""),
            metadata=data.get("metadata"),
        )
        return Response(store_json(store))


class StoreDetailView(ApiView):
    def get(self, request, store_id: str):
        return Response(store_json(self.store(store_id)))

    def post(self, request, store_id: str):
        store = store_services.store_update(writer=self.writer, store=self.store(store_id), data=request.data)
        return Response(store_json(store))

    def patch(self, request, store_id: str):
        """As POST (an older Anthropic reference listed PATCH); its own method so the schema names it apart."""
        return self.post(request, store_id)

    def delete(self, request, store_id: str):
        public_id = store_services.store_delete(writer=self.writer, store=self.store(store_id))
        return Response({"type": "memory_store_deleted", "id": public_id})


class StoreArchiveView(ApiView):
    def post(self, request, store_id: str):
        store = store_services.store_archive(writer=self.writer, store=self.store(store_id))
        return Response(store_json(store))


def _depth(params) -> int:
    raw = params.get("depth")
    if raw is None or raw == "":
        return 0
    try:
        depth = int(raw)
    except ValueError as exc:
        raise InvalidRequest("`depth` must be a whole number of 0 or more.") from exc
    if depth < 0:
        raise InvalidRequest("`depth` must be 0 or more.")
    return depth


def list_memory_items(store: Store, *, prefix: str, depth: int, limit: int, after: list | None):
    """Memories and folder roll-ups under ``prefix`` in path order, from a keyset cursor.

    Returns (items, next_key) where each item is ("memory", Memory) or ("prefix", path).
    Paths under one folder sort together, so after a roll-up the scan jumps past the folder.
    """
    base = selectors.live_memories(store)
    if prefix != "/":
        base = base.filter(path__startswith=prefix)
    items: list[tuple[str, Any]] = []
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


class MemoryListView(ApiView):
    def get(self, request, store_id: str):
        store = self.store(store_id)
        params = request.query_params
        view, limit = query_view_and_limit(params)
        prefix = params.get("path_prefix") or "/"
        if problem := prefix_problem(prefix):
            raise InvalidRequest(problem)
        cursor = decode_cursor(params.get("page"))
        if cursor is not None and (len(cursor) != 2 or cursor[0] not in ("memory", "prefix")
                                   or not isinstance(cursor[1], str)):
            raise InvalidRequest("`page` is not a readable cursor.")
        items, next_key = list_memory_items(store, prefix=prefix, depth=_depth(params), limit=limit, after=cursor)
        data = [memory_json(v, store, view) if k == "memory" else prefix_json(v) for k, v in items]
        return Response(page(data, next_key))

    def post(self, request, store_id: str):
        store = self.store(store_id)
        view = query_view(request.query_params, "basic")
        data = request.data
        if "content" not in data or data.get("content") is None:
            raise InvalidRequest('`content` is required (use "" for an empty memory).')
        memory = memory_services.memory_create(
            writer=self.writer, store=store, path=data.get("path"), content=data.get("content")
        )
        return Response(memory_json(memory, store, view))


class MemoryDetailView(ApiView):
    def get(self, request, store_id: str, memory_id: str):
        store = self.store(store_id)
        view = query_view(request.query_params, "full")
        memory = selectors.live_memories(store).filter(public_id=memory_id).first()
        if memory is None:
            raise NotFound(f"No memory {memory_id} in store {store_id}.")
        return Response(memory_json(memory, store, view))

    def post(self, request, store_id: str, memory_id: str):
        store = self.store(store_id)
        view = query_view(request.query_params, "basic")
        data = request.data
        content = _string_field(data, "content")
        path = _string_field(data, "path")
        base = None
        precondition = data.get("precondition")
        if precondition is not None:
            if not isinstance(precondition, dict) or precondition.get("type") != "content_sha256":
                raise InvalidRequest('`precondition` must be {"type": "content_sha256", "content_sha256": "<sha>"}.')
            base = _sha_param(precondition.get("content_sha256"), "precondition.content_sha256")
        memory, _ = memory_services.memory_update(
            writer=self.writer, store=store, memory_id=memory_id, content=content, path=path, base_sha256=base
        )
        return Response(memory_json(memory, store, view))

    def patch(self, request, store_id: str, memory_id: str):
        """As POST (an older Anthropic reference listed PATCH); its own method so the schema names it apart."""
        return self.post(request, store_id, memory_id)

    def delete(self, request, store_id: str, memory_id: str):
        store = self.store(store_id)
        expected = request.query_params.get("expected_content_sha256")
        if expected is not None:
            expected = _sha_param(expected, "expected_content_sha256")
        memory = memory_services.memory_delete(
            writer=self.writer, store=store, memory_id=memory_id, expected_sha256=expected
        )
        return Response({"type": "memory_deleted", "id": memory.public_id})


class VersionListView(ApiView):
    def get(self, request, store_id: str):
        store = self.store(store_id)
        params = request.query_params
        view, limit = query_view_and_limit(params)
        qs = Memory.history.filter(store_id=store.pk)
        if memory_id := params.get("memory_id"):
            qs = qs.filter(public_id=memory_id)
        if operation := params.get("operation"):
            if operation not in ("created", "modified", "deleted"):
                raise InvalidRequest("`operation` must be created, modified or deleted.")
            qs = qs.filter(operation=operation)
        if session_id := params.get("session_id"):
            qs = qs.filter(run_public_id=session_id)
        if api_key_id := params.get("api_key_id"):
            qs = qs.filter(api_key_id=api_key_id)
        if params.get("service_account_id"):
            qs = qs.none()  # the console has no service accounts
        if (gte := query_datetime(params, "created_at[gte]")) is not None:
            qs = qs.filter(history_date__gte=gte)
        if (lte := query_datetime(params, "created_at[lte]")) is not None:
            qs = qs.filter(history_date__lte=lte)
        rows, next_key = newest_first_page(
            qs, params, time_field="history_date", pk_field="history_id", limit=limit
        )
        return Response(page([version_json(v, store, view) for v in rows], next_key))


class VersionDetailView(ApiView):
    def get(self, request, store_id: str, version_id: str):
        store = self.store(store_id)
        view = query_view(request.query_params, "full")
        version = Memory.history.filter(store_id=store.pk, version_id=version_id).first()
        if version is None:
            raise NotFound(f"No memory version {version_id} in store {store_id}.")
        return Response(version_json(version, store, view))


class VersionRedactView(ApiView):
    def post(self, request, store_id: str, version_id: str):
        store = self.store(store_id)
        version = redaction.version_redact(writer=self.writer, store=store, version_id=version_id)
        return Response(version_json(version, store, "full"))
