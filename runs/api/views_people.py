"""For people: the set-aside texts and the refusals of a store they may see.

Admins see every store; escalation contacts see their projects' stores. Agents get 403.
"""

from __future__ import annotations

from rest_framework.response import Response

from stores.api.pagination import newest_first_page, page
from stores.api.schema import operation
from stores.api.views import ApiView
from stores.console_checks.reasons import Reason
from stores.errors import PermissionDenied
from stores.selectors import store_for_writer

from .. import selectors
from . import query as q
from . import serializers as s


class PeopleStoreView(ApiView):  # ApiView answers ids and filters holding NUL before they reach the database
    def store(self, store_id: str):
        writer = self.request.auth
        if not writer.is_person:
            raise PermissionDenied(
                "Set-aside texts and refusals are for people: console admins and the project's escalation contacts.",
                code=Reason.PEOPLE_ONLY,
            )
        return store_for_writer(writer, store_id)

    def paged(self, qs, serializer_class, params: dict):
        rows, next_key = newest_first_page(qs, params["page"], time_field="created_at", limit=params["limit"])
        return Response(page(serializer_class(rows, many=True).data, next_key))


class SetAsideListView(PeopleStoreView):
    @operation(
        operation_id="set_asides_list",
        summary="The texts that lost a race to the saved copy, kept for a person, newest first (people)",
        parameters=[q.SetAsideListQuery],
        response=s.SetAsidePage,
    )
    def get(self, request, store_id: str):
        store = self.store(store_id)
        params = self.query(q.SetAsideListQuery)
        qs = selectors.store_set_asides(store, status=params["status"], memory_id=params["memory_id"])
        return self.paged(qs, s.SetAsideOut, params)


class RefusalListView(PeopleStoreView):
    @operation(
        operation_id="refusals_list",
        summary="The store's refused changes (never their text), newest first (people)",
        parameters=[q.RefusalListQuery],
        response=s.RefusalPage,
    )
    def get(self, request, store_id: str):
        store = self.store(store_id)
        params = self.query(q.RefusalListQuery)
        qs = selectors.store_refusals(store, reason_code=params["reason_code"], run_id=params["run_id"])
        return self.paged(qs, s.RefusalOut, params)
