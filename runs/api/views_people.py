"""For people: the set-aside texts and the refusals of a store they may see, and the search
across past run records.

Admins see every store and every project's records; escalation contacts their projects' stores
and records. Agents get 403.
"""

from __future__ import annotations

from rest_framework.response import Response

from stores.api.pagination import cursor_time_pk, decode_cursor, newest_first_page, page
from stores.api.schema import LIMIT, PAGE, operation, query
from stores.api.views import ApiView
from stores.console_checks.reasons import Reason
from stores.errors import PermissionDenied
from stores.selectors import store_for_writer

from .. import selectors
from ..search import DEFAULT_LIMIT, clean_filters, record_search
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


class RunRecordSearchView(ApiView):
    """GET /v1/run_records: full-text search over run records, for people's tokens."""

    @operation(
        operation_id="run_records_search",
        summary="Search past run records, newest first, each hit with its passage highlighted (people)",
        description=(
            "Console admins search every project's records; escalation contacts their projects' only. "
            "Agents' and runs' tokens get 403 `people_only`. A query the search syntax cannot read (an "
            "unclosed quote, an OR with nothing on one side, only words to leave out) answers 400 naming it."
        ),
        parameters=[
            query("q", required=True, description='Words, "a phrase", OR between words, -word, word* (a prefix).'),
            query("project", description="A Jira project key."),
            query("ticket", description="A Jira ticket key."),
            query("agent", description="A hosted agent's name."),
            query("after", description="A day (on or after) or an RFC 3339 time (at or after) the record was kept."),
            query("before", description="A day (on or before) or an RFC 3339 time (before) the record was kept."),
            query("outcome", description="Any of qa_failed, needed_ruling, worked_past_error, retried; "
                                         "repeated or comma-separated."),
            LIMIT,
            PAGE,
        ],
        response=s.RunRecordHitPage,
    )
    def get(self, request):
        writer = self.writer
        if not writer.is_person:
            raise PermissionDenied(
                "Run records are searched by people: console admins and the projects' escalation contacts.",
                code=Reason.PEOPLE_ONLY,
            )
        data = self.query(s.RunRecordSearchIn)
        cursor = decode_cursor(data.get("page") or None)
        page_after = cursor_time_pk(cursor) if cursor else None
        filters = clean_filters(
            project=data.get("project", ""), ticket=data.get("ticket", ""), agent=data.get("agent", ""),
            kept_from=data["kept_from"], kept_before=data["kept_before"],
            outcomes=data.get("outcome", []),
        )
        results = record_search(
            data["q"], project_ids=selectors.record_project_ids_for_person(writer.user), filters=filters,
            limit=data.get("limit") or DEFAULT_LIMIT, page_after=page_after,
        )
        next_key = None
        if results.next_key is not None:
            at, pk = results.next_key
            next_key = [at.isoformat(), pk]
        return Response(page(s.RunRecordHitOut(results.hits, many=True).data, next_key))
