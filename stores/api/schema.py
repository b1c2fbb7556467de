"""The OpenAPI description of the agent API served at /api/schema/.

The views build their JSON by hand (representations.py), so drf-spectacular cannot infer the
shapes: they are written out here once, beside the reference's section 2, and attached to the
views. The token authentication is described too, as a bearer token or an `x-api-key` header.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view

from . import views


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    """An agent's, a person's or a run's token, as `Authorization: Bearer` or as `x-api-key`."""

    target_class = "stores.api.authentication.TokenAuthentication"
    name = ["bearerAuth", "apiKeyAuth"]

    def get_security_definition(self, auto_schema) -> list[dict[str, Any]]:
        return [
            {"type": "http", "scheme": "bearer", "description": "A token an operator issued (shown once)."},
            {"type": "apiKey", "in": "header", "name": "x-api-key", "description": "The same token."},
        ]


def _obj(properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema in which every field is present (null where empty), as on the wire."""
    return {"type": "object", "properties": properties, "required": list(properties)}


STRING = {"type": "string"}
NULLABLE_STRING = {"type": "string", "nullable": True}
TIMESTAMP = {"type": "string", "format": "date-time"}
NULLABLE_TIMESTAMP = {"type": "string", "format": "date-time", "nullable": True}
ACTOR = {
    "type": "object",
    "nullable": True,
    "description": "api_actor (api_key_id), session_actor (session_id: the run) or user_actor (user_id); "
    "each also carries `name`.",
    "properties": {
        "type": {"type": "string", "enum": ["api_actor", "session_actor", "user_actor"]},
        "api_key_id": STRING,
        "session_id": STRING,
        "user_id": STRING,
        "name": STRING,
    },
    "required": ["type", "name"],
}

MEMORY_STORE = _obj(
    {
        "type": {"type": "string", "enum": ["memory_store"]},
        "id": {"type": "string", "example": "memstore_01HxExample0000000000000"},
        "name": STRING,
        "description": STRING,
        "metadata": {
            "type": "object",
            "additionalProperties": STRING,
            "description": "Keys kind, project_key, agent and toolset are the console's own.",
        },
        "created_at": TIMESTAMP,
        "updated_at": TIMESTAMP,
        "archived_at": NULLABLE_TIMESTAMP,
    }
)
MEMORY = _obj(
    {
        "type": {"type": "string", "enum": ["memory"]},
        "id": STRING,
        "memory_store_id": STRING,
        "path": STRING,
        "content": {**NULLABLE_STRING, "description": "Null under view=basic."},
        "content_sha256": STRING,
        "content_size_bytes": {"type": "integer"},
        "memory_version_id": STRING,
        "created_at": TIMESTAMP,
        "updated_at": TIMESTAMP,
    }
)
MEMORY_PREFIX = _obj({"type": {"type": "string", "enum": ["memory_prefix"]}, "path": STRING})
MEMORY_VERSION = _obj(
    {
        "type": {"type": "string", "enum": ["memory_version"]},
        "id": STRING,
        "memory_id": STRING,
        "memory_store_id": STRING,
        "operation": {"type": "string", "enum": ["created", "modified", "deleted"]},
        "path": NULLABLE_STRING,
        "content": NULLABLE_STRING,
        "content_sha256": NULLABLE_STRING,
        "content_size_bytes": {"type": "integer", "nullable": True},
        "created_by": ACTOR,
        "created_at": TIMESTAMP,
        "redacted_at": NULLABLE_TIMESTAMP,
        "redacted_by": ACTOR,
    }
)


def _deleted(kind: str) -> dict[str, Any]:
    return _obj({"type": {"type": "string", "enum": [kind]}, "id": STRING})


def _page(item: dict[str, Any]) -> dict[str, Any]:
    return _obj({"data": {"type": "array", "items": item}, "next_page": NULLABLE_STRING})


ERROR = OpenApiResponse(
    response=_obj(
        {
            "type": {"type": "string", "enum": ["error"]},
            "error": {
                "type": "object",
                "properties": {
                    "type": STRING,
                    "message": STRING,
                    "details": {"type": "object", "properties": {"error_code": STRING}},
                },
                "required": ["type", "message"],
            },
            "request_id": STRING,
        }
    ),
    description="Anthropic's error envelope; the console's reason code is in error.details.error_code.",
)
ERRORS = {400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR}
WRITE_ERRORS = {**ERRORS, 409: ERROR}


def _ok(schema: dict[str, Any], *, conflict: bool = False) -> dict[int, Any]:
    """Every success is 200 with a JSON body; writes that can meet a stale base or a taken path add 409."""
    return {200: OpenApiResponse(response=schema), **(WRITE_ERRORS if conflict else ERRORS)}


def _query(name: str, kind: Any = OpenApiTypes.STR, description: str = "", enum: list | None = None):
    return OpenApiParameter(name, kind, OpenApiParameter.QUERY, description=description, enum=enum)


VIEW = _query("view", description="basic (content null) or full.", enum=["basic", "full"])
LIMIT = _query("limit", OpenApiTypes.INT, "1 to 100, default 20; pages of full objects hold at most 20.")
PAGE = _query("page", description="The `next_page` of the previous page, unchanged.")
CREATED_GTE = _query("created_at[gte]", OpenApiTypes.DATETIME, "Inclusive lower bound (RFC 3339).")
CREATED_LTE = _query("created_at[lte]", OpenApiTypes.DATETIME, "Inclusive upper bound (RFC 3339).")

STORE_BODY = {
    "type": "object",
    "properties": {
        "name": STRING,
        "description": STRING,
        "metadata": {"type": "object", "additionalProperties": STRING},
    },
    "required": ["name"],
}
STORE_PATCH = {  # every field optional; null leaves a field as it is
    "type": "object",
    "properties": {
        "name": NULLABLE_STRING,
        "description": NULLABLE_STRING,
        "metadata": {
            "type": "object",
            "nullable": True,
            "additionalProperties": NULLABLE_STRING,
            "description": "A patch: a string sets a key, null removes it, keys left out stay.",
        },
    },
}
MEMORY_CREATE = _obj({"path": STRING, "content": STRING})
MEMORY_UPDATE = {
    "type": "object",
    "properties": {
        "content": NULLABLE_STRING,
        "path": {**NULLABLE_STRING, "description": "A rename; never overwrites."},
        "precondition": {
            "type": "object",
            "nullable": True,
            "properties": {"type": {"type": "string", "enum": ["content_sha256"]}, "content_sha256": STRING},
            "required": ["type", "content_sha256"],
        },
    },
}

# Either credential is enough: two requirements (OR), not one that names both (AND).
AUTH = [{"bearerAuth": []}, {"apiKeyAuth": []}]


def _op(**kwargs: Any):
    """One operation of the agent API, authenticated by either credential."""
    return extend_schema(auth=AUTH, **kwargs)


extend_schema_view(
    get=_op(
        operation_id="memory_stores_list",
        summary="List the memory stores this token may read, newest first",
        parameters=[_query("include_archived", OpenApiTypes.BOOL), CREATED_GTE, CREATED_LTE, LIMIT, PAGE],
        responses=_ok(_page(MEMORY_STORE)),
    ),
    post=_op(
        operation_id="memory_stores_create",
        summary="Create a shared store (console admins)",
        request={"application/json": STORE_BODY},
        responses=_ok(MEMORY_STORE),
    ),
)(views.StoreListView)
extend_schema_view(
    get=_op(
        operation_id="memory_stores_retrieve", summary="Retrieve a memory store", responses=_ok(MEMORY_STORE)
    ),
    post=_op(
        operation_id="memory_stores_update",
        summary="Update a memory store (console admins)",
        request={"application/json": STORE_PATCH},
        responses=_ok(MEMORY_STORE),
    ),
    patch=_op(
        operation_id="memory_stores_update_patch",
        summary="Update a memory store (console admins)",
        request={"application/json": STORE_PATCH},
        responses=_ok(MEMORY_STORE),
    ),
    delete=_op(
        operation_id="memory_stores_delete",
        summary="Delete a shared store with every memory and version (console admins)",
        responses=_ok(_deleted("memory_store_deleted")),
    ),
)(views.StoreDetailView)
extend_schema_view(
    post=_op(
        operation_id="memory_stores_archive",
        summary="Archive a memory store, once (console admins)",
        request=None,
        responses=_ok(MEMORY_STORE),
    ),
)(views.StoreArchiveView)
extend_schema_view(
    get=_op(
        operation_id="memories_list",
        summary="List memories and folder roll-ups in path order",
        parameters=[
            _query("path_prefix", description="Starts and ends with /; matches whole segments."),
            _query(
                "depth", OpenApiTypes.INT, "0 (default) lists everything below; d rolls deeper folders up."
            ),
            VIEW,
            LIMIT,
            PAGE,
        ],
        responses=_ok(_page({"oneOf": [MEMORY, MEMORY_PREFIX]})),
    ),
    post=_op(
        operation_id="memories_create",
        summary="Create a memory (never overwrites)",
        parameters=[VIEW],
        request={"application/json": MEMORY_CREATE},
        responses=_ok(MEMORY, conflict=True),
    ),
)(views.MemoryListView)
extend_schema_view(
    get=_op(
        operation_id="memories_retrieve",
        summary="Retrieve a memory (view defaults to full)",
        parameters=[VIEW],
        responses=_ok(MEMORY),
    ),
    post=_op(
        operation_id="memories_update",
        summary="Update or rename a memory; a stale precondition is 409 and its text is kept aside",
        parameters=[VIEW],
        request={"application/json": MEMORY_UPDATE},
        responses=_ok(MEMORY, conflict=True),
    ),
    patch=_op(
        operation_id="memories_update_patch",
        summary="Update or rename a memory (as POST)",
        parameters=[VIEW],
        request={"application/json": MEMORY_UPDATE},
        responses=_ok(MEMORY, conflict=True),
    ),
    delete=_op(
        operation_id="memories_delete",
        summary="Delete a memory (restorable by people for 30 days)",
        parameters=[_query("expected_content_sha256", description="64 lowercase hex; 409 when it differs.")],
        responses=_ok(_deleted("memory_deleted"), conflict=True),
    ),
)(views.MemoryDetailView)
extend_schema_view(
    get=_op(
        operation_id="memory_versions_list",
        summary="List memory versions, newest first",
        parameters=[
            _query("memory_id", description="Also after the memory was deleted."),
            _query("operation", enum=["created", "modified", "deleted"]),
            _query("session_id", description="A run id: the versions that run wrote."),
            _query("api_key_id"),
            _query("service_account_id"),
            CREATED_GTE,
            CREATED_LTE,
            VIEW,
            LIMIT,
            PAGE,
        ],
        responses=_ok(_page(MEMORY_VERSION)),
    ),
)(views.VersionListView)
extend_schema_view(
    get=_op(
        operation_id="memory_versions_retrieve",
        summary="Retrieve a memory version (view defaults to full)",
        parameters=[VIEW],
        responses=_ok(MEMORY_VERSION),
    ),
)(views.VersionDetailView)
extend_schema_view(
    post=_op(
        operation_id="memory_versions_redact",
        summary="Redact a version, once (console admins)",
        request=None,
        responses=_ok(MEMORY_VERSION),
    ),
)(views.VersionRedactView)
