"""A `request-id: req_…` header on every response (the SDK exposes it as `_request_id`)."""

from __future__ import annotations

from stores.ids import new_id


def request_id_for(request) -> str:
    if request is None:
        return new_id("req_")
    raw = getattr(request, "_request", request)
    rid = getattr(raw, "request_id", None)
    if rid is None:
        rid = new_id("req_")
        raw.request_id = rid
    return rid


class RequestIdMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.request_id = new_id("req_")
        response = self.get_response(request)
        response["request-id"] = request.request_id
        return response
