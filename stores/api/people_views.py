"""The people's API: Recently deleted, Restore and Redact all versions, for people's tokens.

The same services as the console pages decide, so a person's token does exactly what the
console lets that person do. Agents' tokens get 403 `people_only`.
"""

from __future__ import annotations

from rest_framework.response import Response

from stores import selectors
from stores.console_checks.reasons import Reason
from stores.errors import PermissionDenied
from stores.models import Store
from stores.services.memories import memory_restore
from stores.services.redaction import memory_redact_all_versions

from . import query as q
from . import serializers as s
from .pagination import newest_first_page, page
from .schema import operation
from .views import ApiView


class PeopleApiView(ApiView):
    """A store as a person's token may see it; an agent's token is told these routes are for people."""

    def person_store(self, store_id: str) -> Store:
        store = self.store(store_id)
        if not self.writer.is_person:
            raise PermissionDenied(
                "Deleted memories are listed, restored and redacted by people (escalation contacts and "
                "console admins), not by agents.",
                code=Reason.PEOPLE_ONLY,
            )
        return store


class DeletedMemoryListView(PeopleApiView):
    @operation(
        operation_id="deleted_memories_list",
        summary="List the store's recently deleted memories, newest deletion first (people)",
        parameters=[q.ViewPageQuery],
        response=s.DeletedMemoryPage,
    )
    def get(self, request, store_id: str):
        store = self.person_store(store_id)
        params = self.query(q.ViewPageQuery)
        qs = selectors.recently_deleted_memories(store)
        rows, next_key = newest_first_page(qs, params["page"], time_field="deleted_at", limit=params["limit"])
        out = s.DeletedMemoryOut(rows, many=True, context={"store": store, "content_view": params["view"]})
        return Response(page(out.data, next_key))


class DeletedMemoryRestoreView(PeopleApiView):
    @operation(
        operation_id="deleted_memories_restore",
        summary="Restore a recently deleted memory, with its id, as a new version (people)",
        parameters=[q.ViewBasicQuery],
        request=s.RestoreIn,
        response=s.MemoryOut,
        conflict=True,
    )
    def post(self, request, store_id: str, memory_id: str):
        store = self.person_store(store_id)
        view = self.query(q.ViewBasicQuery)["view"]
        data = self.body(s.RestoreIn)
        memory = memory_restore(writer=self.writer, store=store, memory_id=memory_id, reason=data.get("reason", ""))
        return Response(s.MemoryOut(memory, context={"store": store, "content_view": view}).data)


class DeletedMemoryRedactView(PeopleApiView):
    @operation(
        operation_id="deleted_memories_redact",
        summary="Redact every version of a deleted memory (people)",
        request=s.RedactIn,
        response=s.DeletedMemoryOut,
    )
    def post(self, request, store_id: str, memory_id: str):
        store = self.person_store(store_id)
        # The console's rules: the same service, the same who-check (contacts on their projects),
        # and the person's reason kept with the redaction.
        data = self.body(s.RedactIn)
        memory = memory_redact_all_versions(
            writer=self.writer, store=store, memory_id=memory_id, reason=data.get("reason", "")
        )
        return Response(s.DeletedMemoryOut(memory, context={"store": store}).data)
