"""Two pages for people who open the API in a browser: /api/ says where the schema and the docs
are, and /api/docs/ is Swagger UI on /api/schema/, served from the installed
drf-spectacular-sidecar package (no CDN) and started by a static script (no inline script, so
the page works under a Content-Security-Policy that allows only the console's own scripts)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET


@require_GET
def api_index(request: HttpRequest) -> HttpResponse:
    """A short page naming the schema, the browsable docs and the API's base URL."""
    return render(request, "api/index.html", {"schema_url": reverse("api-schema"), "docs_url": reverse("api-docs")})


# Scripts and styles from this console only; Swagger UI sets style attributes as it draws.
DOCS_POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " \
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"


@require_GET
def api_docs(request: HttpRequest) -> HttpResponse:
    """Swagger UI on the OpenAPI schema, under its own Content-Security-Policy."""
    response = render(request, "api/docs.html", {"schema_url": reverse("api-schema")})
    response["Content-Security-Policy"] = DOCS_POLICY
    return response
