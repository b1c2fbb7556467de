"""Add a standing decision (a person's ruling) to a project: `add_standing_decision KEY TITLE --text-file F`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from stores.errors import ConsoleError
from stores.management.base import JsonCommand, fail

from ...services import standing_decision_add


def read_text(name: str) -> str:
    """The text of a file, or of standard input for '-'."""
    if name == "-":
        return sys.stdin.read()
    path = Path(name)
    if not path.is_file():
        raise fail(f"No file {name}: pass the path of a UTF-8 text file (or - for standard input).")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise fail(f"{name} is not UTF-8 text.") from exc


class Command(JsonCommand):
    help = "Add a standing decision to a Jira project. Prints {key, id}."

    def add_arguments(self, parser) -> None:
        parser.add_argument("key", help="The Jira project key, such as ACME.")
        parser.add_argument("title", help="A short title for the ruling.")
        parser.add_argument("--text-file", required=True, help="A file holding the ruling's text (- for stdin).")

    def run(self, **options: Any) -> dict[str, Any]:
        text = read_text(options["text_file"])
        try:
            decision = standing_decision_add(project_key=options["key"], title=options["title"], text=text)
        except ConsoleError as exc:
            raise fail(exc.message) from exc
        return {"key": decision.project.key, "id": decision.pk}
