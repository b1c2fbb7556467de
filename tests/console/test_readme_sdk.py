"""The README's anthropic SDK example, run as written after the demo data `make run` loads, against
the console on a live port (only the address and the token are filled in)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command

README = Path(__file__).resolve().parents[2] / "README.md"

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


def sdk_example() -> str:
    text = README.read_text()
    section = text.split("**The API with the anthropic SDK:**", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_readme_sdk_example_works_after_the_demo_is_loaded(live_server, monkeypatch):
    monkeypatch.delenv("DEMO_ADMIN_PASSWORD", raising=False)
    out = io.StringIO()
    call_command("seed_demo", "--json", stdout=out, stderr=io.StringIO())
    token = json.loads(out.getvalue())["agents"][0]["token"]
    code = sdk_example().replace("http://127.0.0.1:8000", live_server.url)
    printed = io.StringIO()
    scope = {"TOKEN": token, "print": lambda *a: printed.write(" ".join(map(str, a)) + "\n")}
    exec(compile(code, "README.md", "exec"), scope)  # noqa: S102 (the README's own example)
    assert "session_actor" in printed.getvalue() or "api_actor" in printed.getvalue()


def test_the_readme_says_how_to_get_the_sdk():
    text = README.read_text()
    assert "pip install" in text.split("**The API with the anthropic SDK:**", 1)[1].split("```python", 1)[0]
