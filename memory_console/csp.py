"""A Content-Security-Policy on the console's pages: no script at all, nothing from elsewhere.

The console runs no JavaScript, so `script-src 'none'`: an injected <script>, event handler or
`javascript:` URL never runs, whatever slips past the Markdown sanitiser. Its one stylesheet is
inlined (console/stylesheet.html) and allowed by its SHA-256, worked out once from that template,
so no other inline style applies either. (Django 6.0 brings its own CSP; this is the 5.2 way.)
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import cache

from django.conf import settings
from django.template.loader import render_to_string

STYLESHEET_TEMPLATE = "console/stylesheet.html"


@cache
def stylesheet_hash() -> str:
    """The CSP source for the inline stylesheet: 'sha256-…' of the text between <style> and </style>."""
    html = render_to_string(STYLESHEET_TEMPLATE)
    match = re.search(r"<style>(.*)</style>", html, re.DOTALL)
    if match is None:
        raise ValueError(f"{STYLESHEET_TEMPLATE} holds no <style> element")
    digest = hashlib.sha256(match.group(1).encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def console_policy() -> str:
    """The header's value: the console's own origin for forms, nothing else but its stylesheet."""
    return "; ".join(
        [
            "default-src 'none'",
            "script-src 'none'",
            f"style-src {stylesheet_hash()}",
            "img-src 'self' data:",  # the blank favicon is a data: URL
            "form-action 'self'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
        ]
    )


class ConsoleContentSecurityPolicyMiddleware:
    """Adds the console's policy to HTML answered under CONSOLE_CSP_PATH_PREFIXES (the API is JSON)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.path.startswith(tuple(settings.CONSOLE_CSP_PATH_PREFIXES)) \
                and response.get("Content-Type", "").startswith("text/html"):
            response.setdefault("Content-Security-Policy", console_policy())
        return response
