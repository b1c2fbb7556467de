"""For people: the set-aside texts and the refusals of a store they may see.

Admins see every store; escalation contacts see their projects' stores. Agents get 403.
"""

from __future__ import annotations

from rest_framework.response import Response

from stores.api.pagination import newest_first_page, page, query_limit
from stores.api.views import ApiView
from stores.console_checks.reasons import Reason
from stores.errors import InvalidRequest, PermissionDenied
from stores.models import Refusal, SetAside, SetAsideStatus
from stores.selectors import store_for_writer

from .representations import refusal_json, set_aside_json


class PeopleStoreView(ApiView):  # ApiView answers ids and filters holding NUL before they reach the database
    def store(self, store_id: str):
        writer = self.request.auth
        if not writer.is_person:
            raise PermissionDenied(
                "Set-aside texts and refusals are for people: console admins and the project's escalation contacts.",
                code=Reason.PEOPLE_ONLY,
            )
        return store_for_writer(writer, store_id)

    def paged(self, qs, render):
        params = self.request.query_params
        limit = query_limit(params)
        rows, next_key = newest_first_page(qs, params, time_field="created_at", limit=limit)
        return Response(page([render(r) for r in rows], next_key))


class SetAsideListView(PeopleStoreView):
    def get(self, request, store_id: str):
        store = self.store(store_id)
        qs = SetAside.objects.filter(store=store).select_related("memory", "store")
        status = request.query_params.get("status")
        if status:
            if status not in SetAsideStatus.values:
                raise InvalidRequest("`status` must be open, used or dismissed.")
            qs = qs.filter(status=status)
        if memory_id := request.query_params.get("memory_id"):
            qs = qs.filter(memory__public_id=memory_id)
        return self.paged(qs, set_aside_json)


class RefusalListView(PeopleStoreView):
    def get(self, request, store_id: str):
        store = self.store(store_id)
        qs = Refusal.objects.filter(store=store).select_related("store")
        if code := request.query_params.get("reason_code"):
            qs = qs.filter(code=code)
        if run_id := request.query_params.get("run_id"):
            qs = qs.filter(run_public_id=run_id)
        return self.paged(qs, refusal_json)
