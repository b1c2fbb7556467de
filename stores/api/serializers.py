"""The agent API's bodies in and out, as the reference's section 2 writes them.

Out: every field present, null where empty, timestamps in UTC with a 'Z'. In: a known field of
the wrong type is 400 with a message naming it; unknown fields are ignored, as Anthropic's API
ignores them. The schema at /api/schema/ is generated from these classes.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from stores.console_checks.when import PATH_FINGERPRINT_KEY
from stores.errors import InvalidRequest
from stores.restore_window import restorable_until

from .fields import (
    ConstantField,
    JsonObjectField,
    StrictCharField,
    TimestampField,
    first_error,
    literal,
    ts,
)

SHA_HEX = frozenset("0123456789abcdef")
SHA_MESSAGE = "`{name}` must be 64 lowercase hexadecimal characters (a SHA-256)."


def read_body(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """The request body checked by ``serializer_class``, or 400 naming the first field that is wrong."""
    serializer = serializer_class(data=data)
    if not serializer.is_valid():
        raise InvalidRequest(first_error(serializer.errors))
    return serializer.validated_data


def sha_param(value: Any, name: str) -> str:
    """A SHA-256 as 64 lowercase hex characters, or 400 naming where it was sent."""
    if not isinstance(value, str) or len(value) != 64 or not set(value) <= SHA_HEX:
        raise InvalidRequest(SHA_MESSAGE.format(name=name))
    return value


def _full(serializer: serializers.Field) -> bool:
    """Whether the caller asked for `view=full` (content included)."""
    return serializer.context.get("content_view") == "full"


def _store_id(serializer: serializers.Field) -> str:
    """The store's public id, from the context: the view holds the store, so no row reads it again."""
    return serializer.context["store"].public_id


# Shared pieces ---------------------------------------------------------------------------------

METADATA_SCHEMA = {
    "type": "object",
    "additionalProperties": {"type": "string"},
    "description": "Keys kind, project_key, agent and toolset are the console's own.",
}
METADATA_PATCH_SCHEMA = {
    "type": "object",
    "nullable": True,
    "additionalProperties": {"type": "string", "nullable": True},
    "description": "A patch: a string sets a key, null removes it, keys left out stay.",
}


class ActorOut(serializers.Serializer):
    """Who wrote or redacted: api_actor (api_key_id), session_actor (session_id: the run) or user_actor."""

    type = serializers.ChoiceField(choices=["api_actor", "session_actor", "user_actor"], read_only=True)
    # Present by the actor's type only: not read-only, so the schema does not list them as always there.
    api_key_id = serializers.CharField(required=False)
    session_id = serializers.CharField(required=False)
    user_id = serializers.CharField(required=False)
    name = serializers.CharField(read_only=True)


@extend_schema_field(ActorOut(allow_null=True))
class ActorField(serializers.JSONField):
    """An actor as it was stored with the version: passed through unchanged."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)


@extend_schema_field(METADATA_SCHEMA)
class MetadataOutField(serializers.JSONField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)


@extend_schema_field(METADATA_SCHEMA)
class MetadataInField(JsonObjectField):
    pass


@extend_schema_field(METADATA_PATCH_SCHEMA)
class MetadataPatchField(JsonObjectField):
    pass


def page_of(item: serializers.Serializer | type[serializers.Serializer], name: str) -> type[serializers.Serializer]:
    """A page of a list: `data` and the opaque `next_page` cursor (null on the last page)."""
    return type(
        name,
        (serializers.Serializer,),
        {
            "data": item(many=True, read_only=True) if isinstance(item, type) else item,
            "next_page": serializers.CharField(read_only=True, allow_null=True),
            "__doc__": f"One page of {name.removesuffix('Page')} objects, newest or path order as listed.",
        },
    )


class ErrorDetailsOut(serializers.Serializer):
    error_code = serializers.CharField(read_only=True, help_text="The console's stable reason code.")


class ErrorBodyOut(serializers.Serializer):
    type = serializers.CharField(read_only=True, help_text="invalid_request_error, permission_error, ...")
    message = serializers.CharField(read_only=True)
    details = ErrorDetailsOut(required=False)  # not read-only: present only where a reason code applies


class ErrorOut(serializers.Serializer):
    """Anthropic's error envelope; the console's reason code is in error.details.error_code."""

    type = ConstantField("error")
    error = ErrorBodyOut(read_only=True)
    request_id = serializers.CharField(read_only=True)


# Stores ----------------------------------------------------------------------------------------


class MemoryStoreOut(serializers.Serializer):
    type = ConstantField("memory_store")
    id = serializers.CharField(source="public_id", read_only=True)
    name = serializers.CharField(read_only=True)
    description = serializers.SerializerMethodField()
    metadata = MetadataOutField(source="full_metadata")
    created_at = TimestampField()
    updated_at = TimestampField()
    archived_at = TimestampField(allow_null=True)

    def get_description(self, store) -> str:
        return store.description or ""


MemoryStorePage = page_of(MemoryStoreOut, "MemoryStorePage")


class MemoryStoreCreateIn(serializers.Serializer):
    name = StrictCharField(message="`name` must be a string of 1 to 255 characters.")
    description = StrictCharField(
        message="`description` must be a string of at most 1,024 characters.", required=False, allow_null=True
    )
    metadata = MetadataInField(
        message="`metadata` must be an object of string keys and string values.", required=False, allow_null=True
    )


class MemoryStoreUpdateIn(serializers.Serializer):
    """Every field optional; null leaves a field as it is."""

    name = StrictCharField(
        message="`name` must be a string of 1 to 255 characters.", required=False, allow_null=True
    )
    description = StrictCharField(
        message="`description` must be a string of at most 1,024 characters.", required=False, allow_null=True
    )
    metadata = MetadataPatchField(
        message="`metadata` must be an object of string keys and string values.", required=False, allow_null=True
    )


class MemoryStoreDeletedOut(serializers.Serializer):
    type = ConstantField("memory_store_deleted")
    id = serializers.CharField(read_only=True)


# Memories --------------------------------------------------------------------------------------


class MemoryOut(serializers.Serializer):
    """A memory; `content` is null under view=basic."""

    type = ConstantField("memory")
    id = serializers.CharField(source="public_id", read_only=True)
    memory_store_id = serializers.SerializerMethodField()
    path = serializers.CharField(read_only=True)
    content = serializers.SerializerMethodField(help_text="Null under view=basic.")
    content_sha256 = serializers.CharField(read_only=True)
    content_size_bytes = serializers.IntegerField(source="size_bytes", read_only=True)
    memory_version_id = serializers.CharField(source="head_version_id", read_only=True)
    created_at = TimestampField()
    updated_at = TimestampField()

    def get_memory_store_id(self, memory) -> str:
        return _store_id(self)

    def get_content(self, memory) -> str | None:
        return memory.content if _full(self) else None


class MemoryPrefixOut(serializers.Serializer):
    """A folder rolled up under `depth`: its path, ending in /."""

    type = ConstantField("memory_prefix")
    path = serializers.CharField(read_only=True)


MemoryListPage = page_of(
    PolymorphicProxySerializer(
        component_name="MemoryListItem",
        serializers=[MemoryOut, MemoryPrefixOut],
        resource_type_field_name=None,
        many=True,
    ),
    "MemoryListPage",
)


class MemoryCreateIn(serializers.Serializer):
    content = StrictCharField(
        message='`content` must be a string (use "" for an empty memory).',
        missing='`content` is required (use "" for an empty memory).',
    )
    path = StrictCharField(message="`path` must be a string such as /conventions/naming.md.")


class PreconditionIn(serializers.Serializer):
    type = serializers.ChoiceField(choices=["content_sha256"])
    content_sha256 = serializers.CharField(help_text="64 lowercase hex: the content the change was made on.")


PRECONDITION_MESSAGE = '`precondition` must be {"type": "content_sha256", "content_sha256": "<sha>"}.'


@extend_schema_field(PreconditionIn(allow_null=True))
class PreconditionField(serializers.Field):
    """`{"type": "content_sha256", "content_sha256": ...}`, read as the SHA it carries."""

    def __init__(self, **kwargs: Any) -> None:
        message = literal(PRECONDITION_MESSAGE)
        kwargs.setdefault("error_messages", {"invalid": message, "null": message})
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, dict) or data.get("type") != "content_sha256":
            self.fail("invalid")
        return sha_param(data.get("content_sha256"), "precondition.content_sha256")

    def to_representation(self, value: Any) -> Any:
        return value


class MemoryUpdateIn(serializers.Serializer):
    """Content, a rename, or both; a stale precondition is 409 and its text is kept aside."""

    content = StrictCharField(message="`content` must be a string.", required=False, allow_null=True)
    path = StrictCharField(
        message="`path` must be a string.", required=False, allow_null=True,
        help_text="A rename; never overwrites.",
    )
    precondition = PreconditionField(required=False, allow_null=True)


class MemoryDeletedOut(serializers.Serializer):
    type = ConstantField("memory_deleted")
    id = serializers.CharField(read_only=True)


# Versions --------------------------------------------------------------------------------------


class MemoryVersionOut(serializers.Serializer):
    """A version; text fields are null once redacted (and on a delete), content null under view=basic."""

    type = ConstantField("memory_version")
    id = serializers.CharField(source="version_id", read_only=True)
    memory_id = serializers.CharField(source="public_id", read_only=True)
    memory_store_id = serializers.SerializerMethodField()
    operation = serializers.ChoiceField(choices=["created", "modified", "deleted"], read_only=True)
    path = serializers.SerializerMethodField()
    content = serializers.SerializerMethodField()
    content_sha256 = serializers.SerializerMethodField()
    content_size_bytes = serializers.SerializerMethodField()
    created_by = ActorField(source="actor", allow_null=True)
    created_at = TimestampField(source="history_date")
    redacted_at = TimestampField(source="version_redacted_at", allow_null=True)
    redacted_by = ActorField(source="version_redacted_by", allow_null=True)

    def get_memory_store_id(self, version) -> str:
        return _store_id(self)

    @staticmethod
    def _has_text(version) -> bool:
        return version.version_redacted_at is None and version.operation != "deleted"

    def get_path(self, version) -> str | None:
        return None if version.version_redacted_at is not None else version.path

    def get_content(self, version) -> str | None:
        return version.content if (self._has_text(version) and _full(self)) else None

    def get_content_sha256(self, version) -> str | None:
        return version.content_sha256 if self._has_text(version) else None

    def get_content_size_bytes(self, version) -> int | None:
        return version.size_bytes if self._has_text(version) else None


MemoryVersionPage = page_of(MemoryVersionOut, "MemoryVersionPage")


# The people's routes: Recently deleted ---------------------------------------------------------


class DeletedMemoryOut(serializers.Serializer):
    """A deleted memory: who deleted it, when and why, until when it can be restored, and any redaction."""

    type = ConstantField("deleted_memory")
    id = serializers.CharField(source="public_id", read_only=True)
    memory_store_id = serializers.SerializerMethodField()
    path = serializers.SerializerMethodField()
    content = serializers.SerializerMethodField()
    content_sha256 = serializers.SerializerMethodField()
    content_size_bytes = serializers.SerializerMethodField()
    memory_version_id = serializers.CharField(source="head_version_id", read_only=True)
    created_at = TimestampField()
    updated_at = TimestampField()
    deleted_at = TimestampField(allow_null=True)
    deleted_by = ActorField(allow_null=True)
    delete_reason = serializers.SerializerMethodField()
    restorable_until = serializers.SerializerMethodField()
    redacted_at = TimestampField(allow_null=True)
    redacted_by = serializers.SerializerMethodField()

    def get_memory_store_id(self, memory) -> str:
        return _store_id(self)

    def get_path(self, memory) -> str | None:
        return None if memory.redacted_at is not None else memory.path

    def get_content(self, memory) -> str | None:
        return memory.content if (_full(self) and memory.redacted_at is None) else None

    def get_content_sha256(self, memory) -> str | None:
        return None if memory.redacted_at is not None else memory.content_sha256

    def get_content_size_bytes(self, memory) -> int | None:
        return None if memory.redacted_at is not None else memory.size_bytes

    def get_delete_reason(self, memory) -> str | None:
        return memory.delete_reason or None

    @extend_schema_field(TimestampField(allow_null=True))
    def get_restorable_until(self, memory) -> str | None:
        return ts(restorable_until(memory))

    @extend_schema_field(ActorOut(allow_null=True))
    def get_redacted_by(self, memory) -> dict[str, Any] | None:
        # The path's fingerprint is kept to match the path again, never shown.
        if not memory.redacted_by:
            return memory.redacted_by
        return {k: v for k, v in memory.redacted_by.items() if k != PATH_FINGERPRINT_KEY}


DeletedMemoryPage = page_of(DeletedMemoryOut, "DeletedMemoryPage")


class RestoreIn(serializers.Serializer):
    reason = StrictCharField(
        message="`reason` must be a string.", required=False, allow_null=True,
        help_text="Why, in a sentence or two (at most 2,000 characters); kept with the new version.",
    )

    def validate_reason(self, value: str | None) -> str:
        if value is None:
            return ""
        if len(value) > 2000:
            raise serializers.ValidationError(
                "`reason` is longer than 2,000 characters; keep it to a sentence or two."
            )
        return value



class RedactIn(RestoreIn):
    """Redact all versions: an optional reason, kept with the redaction (never quoting the text)."""
