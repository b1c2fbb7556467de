"""Serializer fields for the wire as the SDK speaks it.

DRF's own fields are forgiving where this API is not: a CharField turns 5 into "5", a
BooleanField takes "yes", an IntegerField takes "7". Here a known field of the wrong JSON type
is refused with a message that names it, and the values' finer rules (lengths, NUL, paths,
secrets) stay with the services and the checks pipeline, which every other door calls too.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import build_basic_type
from drf_spectacular.types import OpenApiTypes
from rest_framework import serializers
from rest_framework.validators import ProhibitSurrogateCharactersValidator


def ts(value: datetime | None) -> str | None:
    """RFC 3339 in UTC with microseconds and a 'Z', as the reference's timestamps are written."""
    if value is None:
        return None
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def literal(message: str) -> str:
    """A message as DRF's ``fail`` formats it: braces (a JSON example) kept as written."""
    return message.replace("{", "{{").replace("}", "}}")


def _messages(message: str, missing: str | None = None) -> dict[str, str]:
    # One message for mistyped (and, unless told otherwise, absent or null): it names the field and its type.
    message = literal(message)
    missing = literal(missing) if missing else message
    return {"required": missing, "null": missing, "invalid": message, "not_a_dict": message,
            "not_a_list": message, "blank": message}


class StrictCharField(serializers.CharField):
    """A JSON string, kept exactly as sent (no trimming); NUL and surrogates are the services' to refuse."""

    def __init__(self, *, message: str, missing: str | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("trim_whitespace", False)
        kwargs.setdefault("allow_blank", True)
        kwargs.setdefault("error_messages", _messages(message, missing))
        super().__init__(**kwargs)
        # The services refuse these with the field's name and, for content, a reason code.
        self.validators = [
            v for v in self.validators
            if not isinstance(v, ProhibitNullCharactersValidator | ProhibitSurrogateCharactersValidator)
        ]

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return data


class StrictBooleanField(serializers.BooleanField):
    """JSON true or false, nothing that merely looks like one."""

    def __init__(self, *, message: str, **kwargs: Any) -> None:
        kwargs.setdefault("error_messages", _messages(message))
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class StrictIntegerField(serializers.IntegerField):
    """A JSON whole number (not a bool, not a string of digits), at least ``min_value``."""

    def __init__(self, *, message: str, **kwargs: Any) -> None:
        kwargs.setdefault("error_messages", _messages(message))
        super().__init__(**kwargs)
        self.validators = []  # the minimum is checked below, with the field's own message

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        if self.min_value is not None and data < self.min_value:
            self.fail("invalid")
        return data


class JsonObjectField(serializers.DictField):
    """A JSON object passed on as sent; what its keys and values may be is the service's rule."""

    def __init__(self, *, message: str, **kwargs: Any) -> None:
        kwargs.setdefault("error_messages", _messages(message))
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> dict:
        if not isinstance(data, dict):
            self.fail("not_a_dict")
        return data


class JsonListField(serializers.ListField):
    """A JSON array passed on as sent."""

    def __init__(self, *, message: str, **kwargs: Any) -> None:
        kwargs.setdefault("error_messages", _messages(message))
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> list:
        if not isinstance(data, list):
            self.fail("not_a_list")
        return data


class TimestampField(serializers.DateTimeField):
    """An output timestamp: UTC, microseconds, 'Z' (DRF's own would follow TIME_ZONE)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)

    def to_representation(self, value: datetime | None) -> str | None:
        return ts(value)


class ConstantField(serializers.Field):
    """The object's `type`, the same string on every object of a kind."""

    def __init__(self, value: str, **kwargs: Any) -> None:
        self.value = value
        kwargs.update(read_only=True, source="*")
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> str:
        return self.value


class ConstantFieldSchema(OpenApiSerializerFieldExtension):
    """`type` as a one-value enum, as the reference writes it."""

    target_class = ConstantField

    def map_serializer_field(self, auto_schema, direction):
        return {**build_basic_type(OpenApiTypes.STR), "enum": [self.target.value]}


def first_error(errors: Any) -> str:
    """The first message of a serializer's errors: each one names its field already."""
    while isinstance(errors, dict | list):
        if not errors:
            return "The request body is not valid."
        errors = next(iter(errors.values())) if isinstance(errors, dict) else errors[0]
    return str(errors)
