"""add_pod NAME --agent NAME... --project KEY... -> {name}"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from stores.errors import ConsoleError
from stores.management.base import JsonCommand
from stores.services.registry import pod_add


class Command(JsonCommand):
    help = "Make a pod: agents that may write the project stores of the projects it covers."

    def add_arguments(self, parser) -> None:
        parser.add_argument("name")
        parser.add_argument("--agent", action="append", required=True, help="An agent in the pod (repeatable).")
        parser.add_argument("--project", action="append", required=True, help="A Jira project it covers (repeatable).")

    def run(self, **options: Any) -> dict[str, Any]:
        try:
            pod = pod_add(name=options["name"], agents=options["agent"], projects=options["project"])
        except ConsoleError as exc:
            raise CommandError(exc.message) from exc
        return {"name": pod.name}
