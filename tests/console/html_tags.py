"""The tags and attributes a browser would actually build from an HTML string."""

from __future__ import annotations

from html.parser import HTMLParser


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.comments: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, {name: value or "" for name, value in attrs}))

    def handle_comment(self, data):
        self.comments.append(data)


def tags_in(html: str) -> list[tuple[str, dict[str, str]]]:
    """Every start tag in ``html`` with its attributes (escaped text makes no tags)."""
    collector = _Collector()
    collector.feed(html)
    collector.close()
    return collector.tags


def unsafe_parts(html: str) -> list[str]:
    """Anything in ``html`` that could run script or pull in content: bad tags, event handlers,
    script URLs, styles and comments."""
    collector = _Collector()
    collector.feed(html)
    collector.close()
    problems = [f"comment {c!r}" for c in collector.comments]
    for tag, attrs in collector.tags:
        if tag in {"script", "style", "img", "iframe", "svg", "object", "embed", "form", "input", "link", "meta"}:
            problems.append(f"<{tag}>")
        for name, value in attrs.items():
            if name.startswith("on") or name in {"style", "src", "srcdoc"}:
                problems.append(f"{tag} {name}=")
            if name == "href" and not value.startswith(("http://", "https://", "mailto:", "#", "/")):
                problems.append(f"{tag} href={value!r}")
    return problems
