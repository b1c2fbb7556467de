"""The run routes' query parameters, read through serializers (which also document them in /api/schema/)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.fields import empty

from stores.api.query import AsSent, PageQuery, QueryChoice, QueryLimit, QueryPage, QueryText
from stores.errors import InvalidRequest
from stores.models import SetAsideStatus

from . import long_poll

CURSOR_REQUIRED = "`cursor` is required: pass the cursor of the snapshot or of the last changes."


class QueryWait(AsSent, serializers.FloatField):
    """Seconds to hold the request, 0 to 30 (an empty value is no number)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, default=None, **kwargs)

    def run_validation(self, data: Any = empty) -> Any:
        if data is empty:
            return None
        return self.to_internal_value(data)

    def to_internal_value(self, data: Any) -> float | None:
        try:
            return long_poll.wait_seconds(str(data))
        except InvalidRequest as exc:
            raise serializers.ValidationError(exc.message) from exc


class RunChangesQuery(serializers.Serializer):
    # ``wait`` first: it has always been checked before the cursor.
    wait = QueryWait(
        help_text="Hold the request until a change the run may see is committed, at most this many seconds "
        "(0 to 30); the answer then says `memory-console-wait`.",
    )
    cursor = serializers.CharField(
        trim_whitespace=False, help_text="The snapshot's or the last answer's cursor.",
        error_messages={"required": CURSOR_REQUIRED, "blank": CURSOR_REQUIRED},
    )


class SetAsideListQuery(serializers.Serializer):
    # ``status`` first: it has always been checked before the page.
    status = QueryChoice(choices=list(SetAsideStatus.values), message="`status` must be open, used or dismissed.")
    memory_id = QueryText()
    limit = QueryLimit()
    page = QueryPage()


class RefusalListQuery(PageQuery):
    reason_code = QueryText()
    run_id = QueryText()
