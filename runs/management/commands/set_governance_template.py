"""Set a project's governance template from a file: `set_governance_template KEY FILE`."""

from __future__ import annotations

from typing import Any

from stores.errors import ConsoleError
from stores.management.base import JsonCommand, fail

from ...services import governance_template_set
from .add_standing_decision import read_text


class Command(JsonCommand):
    help = "Set a Jira project's governance template from a file (- for stdin). Prints {key}."

    def add_arguments(self, parser) -> None:
        parser.add_argument("key", help="The Jira project key, such as ACME.")
        parser.add_argument("file", help="A UTF-8 file holding the template (- for standard input).")

    def run(self, **options: Any) -> dict[str, Any]:
        text = read_text(options["file"])
        try:
            project = governance_template_set(project_key=options["key"], text=text)
        except ConsoleError as exc:
            raise fail(exc.message) from exc
        return {"key": project.key}
