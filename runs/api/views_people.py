"""For people: the set-aside texts and the refusals of a store they may see.

Admins see every store; escalation contacts see their projects' stores. Agents get 403.
"""

from __future__ import annotations

from rest_framework.response import Response

from stores.api.pagination import newest_first_page, page, query_limit
from stores.api.schema import LIMIT, PAGE, operation, query
from stores.api.views import ApiView
from stores.console_checks.reasons import Reason
from stores.errors import InvalidRequest, PermissionDenied
from stores.models import SetAsideStatus
from stores.selectors import store_for_writer

from .. import selectors
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

    def paged(self, qs, serializer_class):
        params = self.request.query_params
        limit = query_limit(params)
        rows, next_key = newest_first_page(qs, params, time_field="created_at", limit=limit)
        return Response(page(serializer_class(rows, many=True).data, next_key))


class SetAsideListView(PeopleStoreView):
    @operation(
        operation_id="set_asides_list",
        summary="The texts that lost a race to the saved copy, kept for a person, newest first (people)",
        parameters=[query("status", enum=list(SetAsideStatus.values)), query("memory_id"), LIMIT, PAGE],
        response=s.SetAsidePage,
    )
    def get(self, request, store_id: str):
        store = self.store(store_id)
        status = request.query_params.get("status")
        if status and status not in SetAsideStatus.values:
            raise InvalidRequest("`status` must be open, used or dismissed.")
        qs = selectors.store_set_asides(store, status=status, memory_id=request.query_params.get("memory_id"))
        return self.paged(qs, s.SetAsideOut)


class RefusalListView(PeopleStoreView):
    @operation(
        operation_id="refusals_list",
        summary="The store's refused changes (never their text), newest first (people)",
        parameters=[query("reason_code"), query("run_id"), LIMIT, PAGE],
        response=s.RefusalPage,
    )
    def get(self, request, store_id: str):
        store = self.store(store_id)
        params = request.query_params
        qs = selectors.store_refusals(store, reason_code=params.get("reason_code"), run_id=params.get("run_id"))
        return self.paged(qs, s.RefusalOut)
