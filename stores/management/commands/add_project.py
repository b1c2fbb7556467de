"""add_project KEY --client NAME [--toolset NAME]... -> {key, memory_store_id}"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from stores.errors import ConsoleError
from stores.management.base import JsonCommand
from stores.services.registry import project_add


class Command(JsonCommand):
    help = "Register a Jira project for a client; its project store is made with it."

    def add_arguments(self, parser) -> None:
        parser.add_argument("key", help="The Jira project key, e.g. ACME.")
        parser.add_argument("--client", required=True, help="The name of the client it is worked for.")
        parser.add_argument("--toolset", action="append", default=[], help="A toolset it uses (repeatable).")

    def run(self, **options: Any) -> dict[str, Any]:
        try:
            project = project_add(key=options["key"], client=options["client"], toolsets=options["toolset"])
        except ConsoleError as exc:
            raise CommandError(exc.message) from exc
        return {"key": project.key, "memory_store_id": project.store.public_id}
