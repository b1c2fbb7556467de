"""Under /api/ a URL nothing answers gets the API's 404 envelope, with DEBUG on as well as off.

Django answers an unresolved URL with its debug page when DEBUG is on, never calling
``handler404``; the SDK and agent harnesses read JSON, so a 404 under /api/ for a URL that
resolves to no route is answered here. It looks at the answer (not the request), so the
APPEND_SLASH redirect of a page such as /api/docs still happens first.
"""

from __future__ import annotations

from django.urls import Resolver404, get_resolver

from stores.api.errors import page_not_found


class ApiNotFoundMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 404 and request.path.startswith("/api/"):
            try:
                get_resolver(getattr(request, "urlconf", None)).resolve(request.path_info)
            except Resolver404 as exc:
                return page_not_found(request, exc)
        return response
