"""The agent API: memory stores, memories and versions, compatible with Anthropic's.

Views read the request (bodies through serializers), call one selector or service, and render
through a serializer. Nothing here decides.
"""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions
from rest_framework.permissions import SAFE_METHODS
from rest_framework.response import Response
from rest_framework.views import APIView

from stores import selectors
from stores.errors import InvalidRequest, NotFound
from stores.models import Store
from stores.services import memories as memory_services
from stores.services import redaction
from stores.services import stores as store_services

from . import query as q
from . import serializers as s
from .pagination import decode_cursor, newest_first_page, page
from .schema import NO_FIELDS, operation

VersionListQuery = q.version_list_query(list(selectors.VERSION_OPERATIONS))


class ApiView(APIView):
    def initial(self, request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        # No id holds NUL and PostgreSQL text cannot: answer here instead of failing in the database.
        if any("\x00" in str(value) for value in kwargs.values()):
            raise NotFound("No such object: the id in the URL holds a NUL character.")
        if any("\x00" in value for _, values in request.query_params.lists() for value in values):
            raise InvalidRequest("A query parameter holds a NUL character (U+0000); remove it.")

    def throttled(self, request, wait: float | None) -> None:
        """429 rate_limit_error; the handler adds `retry-after`, which the SDK waits for before retrying."""
        kind = "writes" if request.method not in SAFE_METHODS else "reads"
        # DRF adds "Expected available in N seconds." to the message.
        raise exceptions.Throttled(wait=wait, detail=f"Too many {kind} with this token this minute.")

    @property
    def writer(self):
        return self.request.auth

    def body(self, serializer_class) -> dict[str, Any]:
        """The request body, checked by the serializer: 400 naming the first wrong field."""
        return s.read_body(serializer_class, self.request.data)

    def query(self, serializer_class) -> dict[str, Any]:
        """The query parameters, checked by the serializer: 400 naming the first wrong one."""
        return q.read_query(serializer_class, self.request)

    def store(self, store_id: str) -> Store:
        return selectors.store_for_writer(self.writer, store_id)


class StoreListView(ApiView):
    @operation(
        operation_id="memory_stores_list",
        summary="List the memory stores this token may read, newest first",
        parameters=[q.StoreListQuery],
        response=s.MemoryStorePage,
    )
    def get(self, request):
        params = self.query(q.StoreListQuery)
        qs = selectors.stores_listed(
            self.writer,
            include_archived=params["include_archived"],
            created_gte=params["created_at[gte]"],
            created_lte=params["created_at[lte]"],
        )
        rows, next_key = newest_first_page(qs, params["page"], time_field="created_at", limit=params["limit"])
        return Response(page(s.MemoryStoreOut(rows, many=True).data, next_key))

    @operation(
        operation_id="memory_stores_create",
        summary="Create a shared store (console admins)",
        request=s.MemoryStoreCreateIn,
        response=s.MemoryStoreOut,
    )
    def post(self, request):
        store_services.require_store_admin(self.writer)  # who may manage stores is answered before the body
        data = self.body(s.MemoryStoreCreateIn)
        store = store_services.store_create(
            writer=self.writer,
            name=data.get("name"),
            description=data.get("description", ""),
            metadata=data.get("metadata"),
        )
        return Response(s.MemoryStoreOut(store).data)


STORE_UPDATE = dict(summary="Update a memory store (console admins)", request=s.MemoryStoreUpdateIn,
                    response=s.MemoryStoreOut)


class StoreDetailView(ApiView):
    @operation(operation_id="memory_stores_retrieve", summary="Retrieve a memory store", response=s.MemoryStoreOut)
    def get(self, request, store_id: str):
        return Response(s.MemoryStoreOut(self.store(store_id)).data)

    @operation(operation_id="memory_stores_update", **STORE_UPDATE)
    def post(self, request, store_id: str):
        store = self.store(store_id)
        store_services.require_store_admin(self.writer)  # who may manage stores is answered before the body
        data = self.body(s.MemoryStoreUpdateIn)
        store = store_services.store_update(writer=self.writer, store=store, data=data)
        return Response(s.MemoryStoreOut(store).data)

    @operation(operation_id="memory_stores_update_patch", **STORE_UPDATE)
    def patch(self, request, store_id: str):
        """As POST (an older Anthropic reference listed PATCH); its own method so the schema names it apart."""
        return self.post(request, store_id)

    @operation(
        operation_id="memory_stores_delete",
        summary="Delete a shared store with every memory and version (console admins)",
        response=s.MemoryStoreDeletedOut,
    )
    def delete(self, request, store_id: str):
        public_id = store_services.store_delete(writer=self.writer, store=self.store(store_id))
        return Response(s.MemoryStoreDeletedOut({"id": public_id}).data)


class StoreArchiveView(ApiView):
    @operation(
        operation_id="memory_stores_archive",
        summary="Archive a memory store, once (console admins)",
        request=NO_FIELDS,
        response=s.MemoryStoreOut,
    )
    def post(self, request, store_id: str):
        store = store_services.store_archive(writer=self.writer, store=self.store(store_id))
        return Response(s.MemoryStoreOut(store).data)


def _memory_list_cursor(page_token: str | None) -> list | None:
    cursor = decode_cursor(page_token)
    if cursor is not None and (len(cursor) != 2 or cursor[0] not in ("memory", "prefix")
                               or not isinstance(cursor[1], str)):
        raise InvalidRequest("`page` is not a readable cursor.")
    return cursor


class MemoryListView(ApiView):
    @operation(
        operation_id="memories_list",
        summary="List memories and folder roll-ups in path order",
        parameters=[q.MemoryListQuery],
        response=s.MemoryListPage,
    )
    def get(self, request, store_id: str):
        store = self.store(store_id)
        params = self.query(q.MemoryListQuery)
        view = params["view"]
        items, next_key = selectors.memory_items(
            store, prefix=params["path_prefix"], depth=params["depth"], limit=params["limit"],
            after=_memory_list_cursor(params["page"]),
        )
        memory_out = s.MemoryOut(context={"store": store, "content_view": view})
        prefix_out = s.MemoryPrefixOut()
        data = [memory_out.to_representation(v) if k == "memory" else prefix_out.to_representation({"path": v})
                for k, v in items]
        return Response(page(data, next_key))

    @operation(
        operation_id="memories_create",
        summary="Create a memory (never overwrites)",
        parameters=[q.ViewBasicQuery],
        request=s.MemoryCreateIn,
        response=s.MemoryOut,
        conflict=True,
    )
    def post(self, request, store_id: str):
        store = self.store(store_id)
        view = self.query(q.ViewBasicQuery)["view"]
        data = self.body(s.MemoryCreateIn)
        memory = memory_services.memory_create(
            writer=self.writer, store=store, path=data["path"], content=data["content"]
        )
        return Response(s.MemoryOut(memory, context={"store": store, "content_view": view}).data)


MEMORY_UPDATE = dict(parameters=[q.ViewBasicQuery], request=s.MemoryUpdateIn, response=s.MemoryOut, conflict=True)


class MemoryDetailView(ApiView):
    @operation(
        operation_id="memories_retrieve",
        summary="Retrieve a memory (view defaults to full)",
        parameters=[q.ViewFullQuery],
        response=s.MemoryOut,
    )
    def get(self, request, store_id: str, memory_id: str):
        store = self.store(store_id)
        view = self.query(q.ViewFullQuery)["view"]
        memory = selectors.live_memory(store, memory_id)
        return Response(s.MemoryOut(memory, context={"store": store, "content_view": view}).data)

    @operation(
        operation_id="memories_update",
        summary="Update or rename a memory; a stale precondition is 409 and its text is kept aside",
        **MEMORY_UPDATE,
    )
    def post(self, request, store_id: str, memory_id: str):
        store = self.store(store_id)
        view = self.query(q.ViewBasicQuery)["view"]
        data = self.body(s.MemoryUpdateIn)
        memory, _ = memory_services.memory_update(
            writer=self.writer, store=store, memory_id=memory_id, content=data.get("content"),
            path=data.get("path"), base_sha256=data.get("precondition"),
        )
        return Response(s.MemoryOut(memory, context={"store": store, "content_view": view}).data)

    @operation(operation_id="memories_update_patch", summary="Update or rename a memory (as POST)", **MEMORY_UPDATE)
    def patch(self, request, store_id: str, memory_id: str):
        """As POST (an older Anthropic reference listed PATCH); its own method so the schema names it apart."""
        return self.post(request, store_id, memory_id)

    @operation(
        operation_id="memories_delete",
        summary="Delete a memory (restorable by people for 30 days)",
        parameters=[q.MemoryDeleteQuery],
        response=s.MemoryDeletedOut,
        conflict=True,
    )
    def delete(self, request, store_id: str, memory_id: str):
        store = self.store(store_id)
        expected = self.query(q.MemoryDeleteQuery)["expected_content_sha256"]
        memory = memory_services.memory_delete(
            writer=self.writer, store=store, memory_id=memory_id, expected_sha256=expected
        )
        return Response(s.MemoryDeletedOut({"id": memory.public_id}).data)


class VersionListView(ApiView):
    @operation(
        operation_id="memory_versions_list",
        summary="List memory versions, newest first",
        parameters=[VersionListQuery],
        response=s.MemoryVersionPage,
    )
    def get(self, request, store_id: str):
        store = self.store(store_id)
        params = self.query(VersionListQuery)
        qs = selectors.store_versions(
            store,
            memory_id=params["memory_id"],
            operation=params["operation"],
            session_id=params["session_id"],
            api_key_id=params["api_key_id"],
            service_account_id=params["service_account_id"],
            created_gte=params["created_at[gte]"],
            created_lte=params["created_at[lte]"],
        )
        rows, next_key = newest_first_page(
            qs, params["page"], time_field="history_date", pk_field="history_id", limit=params["limit"]
        )
        out = s.MemoryVersionOut(rows, many=True, context={"store": store, "content_view": params["view"]})
        return Response(page(out.data, next_key))


class VersionDetailView(ApiView):
    @operation(
        operation_id="memory_versions_retrieve",
        summary="Retrieve a memory version (view defaults to full)",
        parameters=[q.ViewFullQuery],
        response=s.MemoryVersionOut,
    )
    def get(self, request, store_id: str, version_id: str):
        store = self.store(store_id)
        view = self.query(q.ViewFullQuery)["view"]
        version = selectors.store_version(store, version_id)
        return Response(s.MemoryVersionOut(version, context={"store": store, "content_view": view}).data)


class VersionRedactView(ApiView):
    @operation(
        operation_id="memory_versions_redact",
        summary="Redact a version, once (console admins)",
        request=NO_FIELDS,
        response=s.MemoryVersionOut,
    )
    def post(self, request, store_id: str, version_id: str):
        store = self.store(store_id)
        version = redaction.version_redact(writer=self.writer, store=store, version_id=version_id)
        return Response(s.MemoryVersionOut(version, context={"store": store, "content_view": "full"}).data)
