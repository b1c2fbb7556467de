"""import_store STORE DIR --as USERNAME
-> {memory_store_id, created, updated, unchanged, refused: [{path, error_code}]}

STORE is a memstore_ id, practice, toolset:NAME, project:KEY or agent:NAME. Every file goes
through the same checks as any other change; a refused file is listed and the rest goes on.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from stores.console_checks.request import Writer
from stores.errors import ConsoleError, Refused
from stores.management.base import JsonCommand
from stores.services.registry import STORE_SPEC_HELP, person_get, store_for_spec
from stores.services.transfer import store_import


class Command(JsonCommand):
    help = (
        "Import a folder of Markdown files into a store, as the person named by --as: new paths are "
        "created, changed ones updated, unchanged ones skipped, nothing deleted. This is how people "
        "keep the practice and toolset stores."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("store", help=f"The store: {STORE_SPEC_HELP}.")
        parser.add_argument("dir", help="The folder; each file's path below it is its memory path.")
        parser.add_argument("--as", dest="as_user", required=True, metavar="USERNAME",
                            help="The person the versions are written as (a console admin).")

    def run(self, **options: Any) -> dict[str, Any]:
        # JsonCommand.progress reads self.verbosity, which BaseCommand only passes in options.
        self.verbosity = options.get("verbosity", 1)
        try:
            store = store_for_spec(options["store"])
            user = person_get(options["as_user"])
            if not user.is_active:
                raise CommandError(f"The account '{user.get_username()}' is not active; it cannot import.")
            writer = Writer(user=user, door="import")
            result = store_import(store, options["dir"], writer, progress=self.progress)
        except Refused as refused:
            # Only a refusal of the writer itself stops an import; it names who may import instead.
            raise CommandError(
                f"Nothing was imported: {refused.message} Import as a console admin "
                "(`manage.py add_person NAME --admin`)."
            ) from refused
        except ConsoleError as exc:
            raise CommandError(exc.message) from exc
        for item in result.refused:
            self.stderr.write(f"refused {item['path']}: {item['error_code']}")
        return result.as_dict()
