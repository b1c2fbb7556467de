"""The run API, beside the memory-store routes: start, read, end, the lesson prompt, the record,
and the run's bulk snapshot and change feed for `memory-sync`.

Views parse, call one selector or service, and render. Nothing here decides.
"""

from __future__ import annotations

from rest_framework.response import Response

from stores.api.views import ApiView

from .. import selectors, services
from ..instructions import instructions_for
from .parsers import RunRecordParser
from .representations import record_json, run_json


class RunApiView(ApiView):  # ApiView answers ids and filters holding NUL before they reach the database
    @property
    def writer(self):
        return self.request.auth


class RunStartView(RunApiView):
    def post(self, request):
        data = request.data
        run, token = services.run_start(writer=self.writer, ticket_key=data.get("ticket_key"), host=data.get("host"))
        return Response(
            {
                "type": "run",
                "id": run.public_id,
                "token": token,
                "agent": run.agent.name,
                "ticket_key": run.ticket_key,
                "project_key": run.project.key,
                "stores": run.attachments,
                "instructions": instructions_for(run),
            }
        )


class RunDetailView(RunApiView):
    def get(self, request, run_id: str):
        return Response(run_json(selectors.run_for_writer(self.writer, run_id)))


class RunEndView(RunApiView):
    def post(self, request, run_id: str):
        run = selectors.run_for_agent(self.writer, run_id)
        run = services.run_end(run=run, signals=services.run_signals(request.data))
        return Response(run_json(run))


class RunLessonView(RunApiView):
    def post(self, request, run_id: str):
        run = selectors.run_for_agent(self.writer, run_id)
        data = request.data
        run = services.run_lesson_answer(
            run=run, nothing_to_record=data.get("nothing_to_record"), why=data.get("why")
        )
        return Response(run_json(run))


class RunRecordView(RunApiView):
    parser_classes = [RunRecordParser]  # the full record of a run may pass Django's 2.5 MB body limit

    def get(self, request, run_id: str):
        run = selectors.run_for_writer(self.writer, run_id)
        records = selectors.run_records(run).select_related("run")
        return Response({"type": "run_records", "run_id": run.public_id, "data": [record_json(r) for r in records]})

    def post(self, request, run_id: str):
        run = selectors.run_for_agent(self.writer, run_id)
        data = request.data
        record = services.run_record_add(run=run, transcript=data.get("transcript"), events=data.get("events"))
        return Response(record_json(record))


class RunSnapshotView(RunApiView):
    """Every file of every attached store in one answer, for checkout (memory pages hold only 20)."""

    def get(self, request, run_id: str):
        run = selectors.run_for_agent(self.writer, run_id)
        snapshot = selectors.run_snapshot(run)
        return Response(
            {"type": "run_snapshot", "run": run_json(run), "instructions": instructions_for(run), **snapshot}
        )


class RunChangesView(RunApiView):
    """What changed in the run's stores since a cursor; one cheap answer when nothing did."""

    def get(self, request, run_id: str):
        run = selectors.run_for_agent(self.writer, run_id)
        changes = selectors.run_changes(run, request.query_params.get("cursor"))
        return Response({"type": "run_changes", "run_active": run.ended_at is None, **changes})
