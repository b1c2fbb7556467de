"""Memory text rendered as Markdown: formatting comes through, no script or raw HTML does."""

from __future__ import annotations

import pytest

from stores.console.markdown import render_markdown

from .html_tags import unsafe_parts

HOSTILE = [
    ("script block", "<script>alert(1)</script>"),
    ("script inline", "text <script>alert(1)</script> text"),
    ("script in a list", "- item <script>alert(1)</script>"),
    ("event handler", '<img src="x" onerror="alert(1)">'),
    ("raw link", '<a href="javascript:alert(1)">x</a>'),
    ("iframe", '<iframe src="https://example.com"></iframe>'),
    ("style", "<style>body{display:none}</style>"),
    ("markdown javascript link", "[x](javascript:alert(1))"),
    ("markdown javascript link, mixed case", "[x](JaVaScRiPt:alert(1))"),
    ("markdown data link", "[x](data:text/html;base64,PHNjcmlwdD4=)"),
    ("markdown vbscript link", "[x](vbscript:msgbox(1))"),
    ("markdown image", "![x](https://example.com/x.png)"),
    ("markdown image onerror", '![x](https://example.com/x.png" onerror="alert(1))'),
    ("reference link", "[x][1]\n\n[1]: javascript:alert(1)"),
    ("autolink", "<javascript:alert(1)>"),
    ("html comment", "<!-- hidden --> shown"),
    ("svg", "<svg onload=alert(1)>"),
    ("entity-encoded script URL", "[x](&#106;avascript:alert(1))"),
    ("fenced block", "```\n<script>alert(1)</script>\n```"),
]


@pytest.mark.parametrize(("label", "text"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_no_script_or_raw_html_gets_through(label, text):
    html = str(render_markdown(text))
    assert unsafe_parts(html) == [], html


def test_raw_html_is_shown_as_text():
    html = str(render_markdown("before <b>bold</b> after"))
    assert "&lt;b&gt;bold&lt;/b&gt;" in html
    assert "<b>" not in html


def test_markdown_formatting_comes_through():
    html = str(render_markdown(
        "# Title\n\nSome *emphasis* and `code`.\n\n- one\n- two\n\n```sql\nselect 1\n```\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n[docs](https://example.com/docs)\n"
    ))
    assert "<h1>Title</h1>" in html
    assert "<em>emphasis</em>" in html and "<code>code</code>" in html
    assert "<li>one</li>" in html
    assert '<code class="language-sql">select 1' in html
    assert "<table>" in html and "<td>1</td>" in html
    assert 'href="https://example.com/docs"' in html and 'rel="noopener noreferrer nofollow"' in html


def test_empty_text_renders_empty():
    assert str(render_markdown("")) == ""
