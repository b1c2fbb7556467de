"""add_client NAME [--alias A]... [--repository R]... [--dataset D]... [--table D.T]...
[--distinctive T]... [--retention-days N] [--one-client-at-a-time] -> {name}"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from stores.errors import ConsoleError
from stores.management.base import JsonCommand
from stores.services.registry import client_add


class Command(JsonCommand):
    help = "Register a client with the names and data that identify it."

    def add_arguments(self, parser) -> None:
        parser.add_argument("name", help="The client's name.")
        parser.add_argument("--alias", action="append", default=[], help="Another name it goes by (repeatable).")
        parser.add_argument("--repository", action="append", default=[], help="A repository of its work (repeatable).")
        parser.add_argument("--dataset", action="append", default=[], help="A dataset of its data (repeatable).")
        parser.add_argument("--table", action="append", default=[], help="A qualified table, dataset.table (repeatable).")
        parser.add_argument(
            "--distinctive",
            action="append",
            default=[],
            help="The bare name of one of its tables that alone identifies the client (repeatable).",
        )
        parser.add_argument(
            "--retention-days", type=int, default=None, help="Days to keep its run records, if shorter than the default."
        )
        parser.add_argument(
            "--one-client-at-a-time", action="store_true", help="Keep each agent on this client's tickets alone."
        )

    def run(self, **options: Any) -> dict[str, Any]:
        try:
            client = client_add(
                name=options["name"],
                aliases=options["alias"],
                repositories=options["repository"],
                datasets=options["dataset"],
                tables=options["table"],
                distinctive_tables=options["distinctive"],
                retention_days=options["retention_days"],
                one_client_at_a_time=options["one_client_at_a_time"],
            )
        except ConsoleError as exc:
            raise CommandError(exc.message) from exc
        return {"name": client.name}
