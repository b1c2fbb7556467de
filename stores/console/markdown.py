"""Memory text rendered as Markdown for people, safely.

Two layers: Python-Markdown runs with its raw-HTML handling removed, so any HTML in a memory is
shown as text; nh3 then cleans the output against a short list of tags, attributes and URL
schemes, so nothing executable (script, event handlers, javascript: links) can get through even
if a Markdown extension misbehaves.
"""

from __future__ import annotations

import markdown
import nh3
from django.utils.safestring import SafeString, mark_safe
from markdown.extensions import Extension

ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "div", "dl", "dt", "em", "h1", "h2",
    "h3", "h4", "h5", "h6", "hr", "i", "kbd", "li", "ol", "p", "pre", "s", "span", "strong", "sub",
    "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
}
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "abbr": {"title"},
    "code": {"class"},
    "th": {"align"},
    "td": {"align"},
}
URL_SCHEMES = {"http", "https", "mailto"}


class EscapeRawHtml(Extension):
    """Remove Python-Markdown's raw-HTML block and inline handling, so HTML stays literal text."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 - Python-Markdown's name
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")


def render_markdown(text: str) -> SafeString:
    """Return ``text`` as sanitised HTML, safe to place in a page unescaped."""
    html = markdown.markdown(
        text or "",
        extensions=["fenced_code", "tables", "sane_lists", EscapeRawHtml()],
        output_format="html",
    )
    cleaned = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer nofollow",
    )
    # nh3 has just removed everything outside the allow-lists above.
    return mark_safe(cleaned)
