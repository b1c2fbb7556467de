"""export_store STORE DIR
-> {memory_store_id, created, updated, unchanged, refused: [{path, error_code}]}

Writes every live memory of the store to DIR at its path, as its exact bytes; created counts
new files, updated overwritten ones, unchanged the files that already held the text.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from stores.errors import ConsoleError
from stores.management.base import JsonCommand
from stores.services.registry import STORE_SPEC_HELP, store_for_spec
from stores.services.transfer import store_export


class Command(JsonCommand):
    help = "Export a store's memories to a folder of Markdown files (other files there are left alone)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("store", help=f"The store: {STORE_SPEC_HELP}.")
        parser.add_argument("dir", help="The folder to write into; made if missing.")

    def run(self, **options: Any) -> dict[str, Any]:
        # JsonCommand.progress reads self.verbosity, which BaseCommand only passes in options.
        self.verbosity = options.get("verbosity", 1)
        try:
            store = store_for_spec(options["store"])
            result = store_export(store, options["dir"], progress=self.progress)
        except ConsoleError as exc:
            raise CommandError(exc.message) from exc
        for item in result.refused:
            self.stderr.write(f"not written {item['path']}: {item['error_code']}")
        return result.as_dict()
