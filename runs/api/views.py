"""The run API, beside the memory-store routes: start, read, end, the lesson prompt, the record,
and the run's bulk snapshot and change feed for `memory-sync`.

Views read the request (bodies through serializers), call one selector or service, and render
through a serializer. Nothing here decides.
"""

from __future__ import annotations

from rest_framework.response import Response

from stores.api.schema import operation
from stores.api.views import ApiView
from stores.services.change_notices import wait_for_store_changes_blocking

from .. import selectors, services
from ..instructions import instructions_for
from . import long_poll
from . import query as q
from . import serializers as s
from .parsers import RunRecordParser


class RunApiView(ApiView):  # ApiView answers ids and filters holding NUL before they reach the database
    @property
    def writer(self):
        return self.request.auth


class RunStartView(RunApiView):
    @operation(
        operation_id="runs_start",
        summary="Start a run on a ticket (the agent's own token); the answer holds the run's token, once",
        request=s.RunStartIn,
        response=s.RunStartOut,
        conflict=True,
    )
    def post(self, request):
        services.require_run_starter(self.writer)  # who may start a run is answered before the body
        data = self.body(s.RunStartIn)
        run, token = services.run_start(writer=self.writer, ticket_key=data["ticket_key"], host=data.get("host"))
        return Response(s.RunStartOut({"run": run, "token": token, "instructions": instructions_for(run)}).data)


class RunDetailView(RunApiView):
    @operation(operation_id="runs_retrieve", summary="Retrieve a run", response=s.RunOut)
    def get(self, request, run_id: str):
        return Response(s.RunOut(selectors.run_for_writer(self.writer, run_id)).data)


class RunEndView(RunApiView):
    @operation(
        operation_id="runs_end",
        summary="End a run with its signals; a run that hit one may be asked for a lesson",
        request=s.RunEndIn,
        response=s.RunOut,
        conflict=True,
    )
    def post(self, request, run_id: str):
        run = selectors.run_for_agent(self.writer, run_id)
        run = services.run_end(run=run, signals=services.run_signals(self.body(s.RunEndIn)))
        return Response(s.RunOut(run).data)


class RunLessonView(RunApiView):
    @operation(
        operation_id="runs_lesson_answer",
        summary="Answer the run's lesson prompt with nothing to record, and why",
        request=s.RunLessonIn,
        response=s.RunOut,
        conflict=True,
    )
    def post(self, request, run_id: str):
        run = selectors.run_for_agent(self.writer, run_id)
        data = self.body(s.RunLessonIn)
        run = services.run_lesson_answer(run=run, nothing_to_record=data["nothing_to_record"], why=data["why"])
        return Response(s.RunOut(run).data)


class RunRecordView(RunApiView):
    parser_classes = [RunRecordParser]  # the full record of a run may pass Django's 2.5 MB body limit

    @operation(operation_id="runs_records_list", summary="The run's record, every part in order",
               response=s.RunRecordsOut)
    def get(self, request, run_id: str):
        run = selectors.run_for_writer(self.writer, run_id)
        records = selectors.run_records(run).select_related("run")
        return Response(s.RunRecordsOut({"run": run, "records": records}).data)

    @operation(
        operation_id="runs_records_add",
        summary="Add a part of the run's record (secrets replaced by [REDACTED:<type>])",
        request=s.RunRecordIn,
        response=s.RunRecordOut,
    )
    def post(self, request, run_id: str):
        run = selectors.run_for_agent(self.writer, run_id)
        data = self.body(s.RunRecordIn)
        record = services.run_record_add(run=run, transcript=data.get("transcript"), events=data.get("events"))
        return Response(s.RunRecordOut(record).data)


class RunSnapshotView(RunApiView):
    """Every file of every attached store in one answer, for checkout (memory pages hold only 20)."""

    @operation(operation_id="runs_snapshot", summary="Every file of the run's stores, for checkout",
               response=s.RunSnapshotOut)
    def get(self, request, run_id: str):
        run = selectors.run_for_agent(self.writer, run_id)
        snapshot = selectors.run_snapshot(run)
        return Response(s.RunSnapshotOut({"run": run, "instructions": instructions_for(run), **snapshot}).data)


class RunChangesView(RunApiView):
    """What changed in the run's stores since a cursor; one cheap answer when nothing did.

    With ``wait=<seconds>`` (at most 30) the request is held until a change the run may see is
    committed (see ``long_poll``); under WSGI this view waits itself, under ASGI the wait happens
    outside it.
    """

    @operation(
        operation_id="runs_changes",
        summary="What changed in the run's stores since a cursor",
        parameters=[q.RunChangesQuery],
        response=s.RunChangesOut,
    )
    def get(self, request, run_id: str):
        run = selectors.run_for_agent(self.writer, run_id)
        params = self.query(q.RunChangesQuery)
        cursor, wait = params["cursor"], params["wait"]
        changes = selectors.run_changes(run, cursor)
        if wait and long_poll.nothing_new(changes) and not long_poll.held_outside(request):
            seen = selectors.decode_change_cursor(changes["cursor"])
            if wait_for_store_changes_blocking(seen, wait):
                changes = selectors.run_changes(run, cursor)
        response = Response(s.RunChangesOut({"run_active": run.ended_at is None, **changes}).data)
        if wait is not None:
            response[long_poll.WAIT_HEADER] = f"{wait:g}"
        return response
