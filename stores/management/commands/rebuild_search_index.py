"""rebuild_search_index -> {memories_indexed, run_records_indexed}"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from runs.search import record_index_rebuild
from stores.management.base import JsonCommand
from stores.services.search import search_index_rebuild_memories


class Command(JsonCommand):
    help = (
        "Index every memory and every run record anew for the console's searches (after restoring a "
        "backup taken before the index existed, say). Redacted memories are left out."
    )

    def run(self, **options: Any) -> dict[str, Any]:
        with transaction.atomic():
            count = search_index_rebuild_memories()
            records = record_index_rebuild()
        return {"memories_indexed": count, "run_records_indexed": records}
