"""Under /api/ a URL nothing answers gets the API's 404 envelope, with DEBUG on as well as off.

Django answers an unresolved URL with its debug page when DEBUG is on, never calling
``handler404``; the SDK and agent harnesses read JSON, so /api/ is resolved here first.
"""

from __future__ import annotations

from django.urls import Resolver404, get_resolver

from stores.api.errors import page_not_found


class ApiNotFoundMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith("/api/"):
            try:
                get_resolver(getattr(request, "urlconf", None)).resolve(request.path_info)
            except Resolver404 as exc:
                return page_not_found(request, exc)
        return self.get_response(request)
