"""rebuild_search_index -> {memories_indexed}"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from stores.management.base import JsonCommand
from stores.services.search import search_index_rebuild_memories


class Command(JsonCommand):
    help = (
        "Index every memory anew for the console's search (after restoring a backup taken before the "
        "index existed, say). Redacted memories are left out."
    )

    def run(self, **options: Any) -> dict[str, Any]:
        with transaction.atomic():
            count = search_index_rebuild_memories()
        return {"memories_indexed": count}
