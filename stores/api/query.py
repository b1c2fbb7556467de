"""The API's query parameters, read through serializers (which also document them in /api/schema/).

Each field keeps the reference's parameter name (``created_at[gte]``) and the message the API has
always answered, naming the parameter; ``read_query`` answers the first wrong one as a 400 in the
error envelope. An empty value counts as absent where it always did (``limit=``, ``view=``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.utils.dateparse import parse_datetime
from rest_framework import serializers
from rest_framework.fields import empty

from stores.errors import InvalidRequest
from stores.paths import prefix_problem

from .fields import first_error
from .serializers import SHA_HEX, SHA_MESSAGE

FULL_VIEW_PAGE_CAP = 20


def read_query(serializer_class: type[serializers.Serializer], request: Any) -> dict[str, Any]:
    """The request's query parameters checked by ``serializer_class``, or 400 naming the first wrong one."""
    serializer = serializer_class(data=request.query_params)
    if not serializer.is_valid():
        raise InvalidRequest(first_error(serializer.errors))
    return serializer.validated_data


class AsSent:
    """The value as sent, an empty one too (DRF reads ``name=`` of an optional field as absent)."""

    def get_value(self, dictionary: Any) -> Any:
        return dictionary.get(self.field_name, empty)  # type: ignore[attr-defined]


class _EmptyIsAbsent:
    """``name=`` is read as no ``name`` at all (its default)."""

    default_empty_html = empty  # absent from the query string: the default, not False or ""

    def run_validation(self, data: Any = empty) -> Any:
        return super().run_validation(empty if data == "" else data)  # type: ignore[misc]


class QueryLimit(_EmptyIsAbsent, serializers.IntegerField):
    """How many items a page holds: 1 to ``maximum``."""

    def __init__(self, *, maximum: int = 100, default: int = 20, **kwargs: Any) -> None:
        self.maximum = maximum
        kwargs.setdefault("help_text", f"1 to {maximum}, default {default}; pages of full objects hold at most 20.")
        super().__init__(required=False, default=default, **kwargs)

    def to_internal_value(self, data: Any) -> int:
        name = self.field_name
        try:
            limit = int(data)
        except (TypeError, ValueError) as exc:
            raise serializers.ValidationError(f"`{name}` must be a whole number from 1 to {self.maximum}.") from exc
        if not 1 <= limit <= self.maximum:
            raise serializers.ValidationError(f"`{name}` must be from 1 to {self.maximum}, not {limit}.")
        return limit


class QueryDepth(_EmptyIsAbsent, serializers.IntegerField):
    """0 or more (default 0)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, default=0, **kwargs)

    def to_internal_value(self, data: Any) -> int:
        try:
            depth = int(data)
        except (TypeError, ValueError) as exc:
            raise serializers.ValidationError(f"`{self.field_name}` must be a whole number of 0 or more.") from exc
        if depth < 0:
            raise serializers.ValidationError(f"`{self.field_name}` must be 0 or more.")
        return depth


class QueryView(_EmptyIsAbsent, serializers.ChoiceField):
    """``basic`` (content null) or ``full``."""

    def __init__(self, *, default: str, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", f"basic (content null) or full; default {default}.")
        super().__init__(choices=["basic", "full"], required=False, default=default, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        if data not in ("basic", "full"):
            raise serializers.ValidationError("`view` must be `basic` or `full`.")
        return data


class QueryBool(_EmptyIsAbsent, serializers.BooleanField):
    """true or false (1 or 0), any case."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, default=False, **kwargs)

    def to_internal_value(self, data: Any) -> bool:
        raw = str(data).lower()
        if raw in ("true", "1"):
            return True
        if raw in ("false", "0"):
            return False
        raise serializers.ValidationError(f"`{self.field_name}` must be true or false.")


class QueryTimestamp(_EmptyIsAbsent, serializers.DateTimeField):
    """An RFC 3339 timestamp, in UTC once read (no zone means UTC)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, default=None, **kwargs)

    def to_internal_value(self, data: Any) -> datetime:
        problem = f"`{self.field_name}` must be an RFC 3339 timestamp such as 2026-01-01T00:00:00Z."
        try:
            # A well-formed but impossible date (month 13, hour 25) raises instead of returning None.
            value = parse_datetime(str(data).replace(" ", "+"))
            if value is None:
                raise serializers.ValidationError(problem)
            if value.tzinfo is None:
                value = value.replace(tzinfo=UTC)
            # In UTC now, so a date at the edge of the calendar fails here and not in the database.
            return value.astimezone(UTC)
        except (ValueError, OverflowError) as exc:
            raise serializers.ValidationError(problem) from exc


class QueryText(serializers.CharField):
    """A string passed on as sent (None when absent; an empty one stays empty)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, default=None, allow_blank=True, trim_whitespace=False, **kwargs)


class QueryChoice(AsSent, serializers.ChoiceField):
    """One of ``choices`` (an empty one filters nothing), else ``message``."""

    def __init__(self, *, choices: list[str], message: str, **kwargs: Any) -> None:
        self.message = message
        super().__init__(choices=choices, required=False, default=None, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        if data and data not in self.choices:
            raise serializers.ValidationError(self.message)
        return data


class QuerySha256(AsSent, serializers.CharField):
    """A SHA-256 as 64 lowercase hex characters."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, default=None, trim_whitespace=False, **kwargs)

    def run_validation(self, data: Any = empty) -> Any:
        if data is empty:
            return None
        return self.to_internal_value(data)  # an empty one too: "" is no SHA-256

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str) or len(data) != 64 or not set(data) <= SHA_HEX:
            raise serializers.ValidationError(SHA_MESSAGE.format(name=self.field_name))
        return data


class QueryPage(QueryText):
    """The ``next_page`` of the previous page, unchanged (read by the pagination)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", "The `next_page` of the previous page, unchanged.")
        super().__init__(**kwargs)


def created_range() -> dict[str, serializers.Field]:
    """``created_at[gte]`` and ``created_at[lte]``: names no Python attribute can hold, hence a dict."""
    return {
        "created_at[gte]": QueryTimestamp(help_text="Inclusive lower bound (RFC 3339)."),
        "created_at[lte]": QueryTimestamp(help_text="Inclusive upper bound (RFC 3339)."),
    }


class ViewBasicQuery(serializers.Serializer):
    view = QueryView(default="basic")


class ViewFullQuery(serializers.Serializer):
    view = QueryView(default="full")


class PageQuery(serializers.Serializer):
    """A page of a newest-first list: ``limit`` and ``page``."""

    limit = QueryLimit()
    page = QueryPage()


class ViewPageQuery(serializers.Serializer):
    """A page of objects that may carry their content: ``view``, ``limit`` and ``page``."""

    view = QueryView(default="basic")
    limit = QueryLimit()
    page = QueryPage()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # Pages of full objects hold at most 20, capped silently (the reference's rule).
        if attrs["view"] == "full":
            attrs["limit"] = min(attrs["limit"], FULL_VIEW_PAGE_CAP)
        return attrs


StoreListQuery = type(
    "StoreListQuery",
    (serializers.Serializer,),
    {
        "__doc__": "The stores list: archived ones too, a creation window, a page.",
        "limit": QueryLimit(),
        "include_archived": QueryBool(help_text="Archived stores too (default false)."),
        **created_range(),
        "page": QueryPage(),
    },
)


class MemoryListQuery(ViewPageQuery):
    """The memories list: a path prefix and a depth for folder roll-ups."""

    path_prefix = serializers.CharField(
        required=False, default="/", trim_whitespace=False, allow_blank=True,
        help_text="Starts and ends with /; matches whole segments.",
    )
    depth = QueryDepth(help_text="0 (default) lists everything below; d rolls deeper folders up.")

    def validate_path_prefix(self, value: str) -> str:
        value = value or "/"
        if problem := prefix_problem(value):
            raise serializers.ValidationError(problem)
        return value



class MemoryDeleteQuery(serializers.Serializer):
    expected_content_sha256 = QuerySha256(help_text="64 lowercase hex; 409 when it differs.")


def version_list_query(operations: list[str]) -> type[serializers.Serializer]:
    """The versions list's filters (``operations``: the version operations the selector knows)."""
    return type(
        "VersionListQuery",
        (ViewPageQuery,),
        {
            "__doc__": "The versions list: by memory, operation, run, key or service account, and a window.",
            "memory_id": QueryText(help_text="Also after the memory was deleted."),
            "operation": QueryChoice(choices=operations, message="`operation` must be created, modified or deleted."),
            "session_id": QueryText(help_text="A run id: the versions that run wrote."),
            "api_key_id": QueryText(),
            "service_account_id": QueryText(),
            **created_range(),
        },
    )
