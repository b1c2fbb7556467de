"""What drf-spectacular needs beyond the serializers to describe the API at /api/schema/.

The bodies come from the serializers (stores/api/serializers.py, runs/api/serializers.py) and the
query parameters from the query serializers (stores/api/query.py, runs/api/query.py); this module
adds the token authentication and the error answers every route shares.
"""

from __future__ import annotations

import copy
from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema

from .serializers import ErrorOut


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    """An agent's, a person's or a run's token, as `Authorization: Bearer` or as `x-api-key`."""

    target_class = "stores.api.authentication.TokenAuthentication"
    name = ["bearerAuth", "apiKeyAuth"]

    def get_security_requirement(self, auto_schema) -> list[dict[str, list]]:
        # Either credential is enough: two requirements (OR), not one that names both (AND).
        return [{name: []} for name in self.name]

    def get_security_definition(self, auto_schema) -> list[dict[str, Any]]:
        return [
            {"type": "http", "scheme": "bearer", "description": "A token an operator issued (shown once)."},
            {"type": "apiKey", "in": "header", "name": "x-api-key", "description": "The same token."},
        ]


ERROR = OpenApiResponse(
    response=ErrorOut,
    description="Anthropic's error envelope; the console's reason code is in error.details.error_code.",
)
THROTTLED = OpenApiResponse(
    response=ErrorOut,
    description="rate_limit_error: too many calls with this token; `retry-after` says how many seconds to wait.",
)
ERRORS = {400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR, 429: THROTTLED}
CONFLICT = {409: ERROR}
# The body of a call that takes no fields (archive, redact): spectacular leaves an empty serializer out.
NO_FIELDS = {
    "type": "object",
    "properties": {},
    "description": "No fields: send {} or no body at all (the SDK sends none); other fields are ignored.",
}


def operation(*, operation_id: str, summary: str, response: Any, request: Any = None,
              conflict: bool = False, parameters: list | None = None, description: str = ""):
    """One operation: its JSON bodies, 200 on success, and the error answers every route shares."""
    responses: dict[int, Any] = {200: response, **ERRORS, **(CONFLICT if conflict else {})}
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        description=description or None,
        # JSON whatever the content-type says (the parser takes */*), so the body is described as JSON.
        request={"application/json": request} if request is not None else None,
        responses=responses,
        parameters=parameters or [],
    )


def query(name: str, kind: Any = OpenApiTypes.STR, description: str = "", enum: list | None = None,
          required: bool = False) -> OpenApiParameter:
    """One query parameter written out by hand (the run-record search's, whose body serializer reads them)."""
    return OpenApiParameter(name, kind, OpenApiParameter.QUERY, description=description, enum=enum,
                            required=required)


LIMIT = query("limit", OpenApiTypes.INT, "1 to 100, default 20; pages of full objects hold at most 20.")
PAGE = query("page", description="The `next_page` of the previous page, unchanged.")


def inline_bodies(result: dict[str, Any], generator, request, public) -> dict[str, Any]:
    """Write each operation's request and response bodies out in place, not as a bare `$ref`.

    A reader of one operation (and the acceptance tests) sees the body's fields where the route
    is described; the components stay, and fields nested inside a body still refer to them.
    """
    schemas = result.get("components", {}).get("schemas", {})

    def resolved(schema: dict[str, Any]) -> dict[str, Any]:
        ref = schema.get("$ref", "")
        name = ref.rsplit("/", 1)[-1]
        if ref.startswith("#/components/schemas/") and name in schemas:
            return copy.deepcopy(schemas[name])
        return schema

    for methods in result.get("paths", {}).values():
        for op in methods.values():
            if not isinstance(op, dict):
                continue
            bodies = [op.get("requestBody", {})] + list(op.get("responses", {}).values())
            for body in bodies:
                for media in body.get("content", {}).values():
                    if "schema" in media:
                        media["schema"] = resolved(media["schema"])
    return result
