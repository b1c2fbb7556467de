"""add_toolset NAME -> {name, memory_store_id}"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from stores.errors import ConsoleError
from stores.management.base import JsonCommand
from stores.services.registry import toolset_add


class Command(JsonCommand):
    help = "Register a toolset (dbt, Looker, ...); its read-only toolset store is made with it."

    def add_arguments(self, parser) -> None:
        parser.add_argument("name", help="The toolset's name, e.g. dbt.")

    def run(self, **options: Any) -> dict[str, Any]:
        try:
            toolset = toolset_add(name=options["name"])
        except ConsoleError as exc:
            raise CommandError(exc.message) from exc
        return {"name": toolset.name, "memory_store_id": toolset.store.public_id}
