"""review_store STORE [--json]
-> {review_id, store_id, proposals: [{id, kind, memory_ids, paths, evidence, proposed_text}]}

STORE is a memstore_ id, practice, toolset:NAME, project:KEY or agent:NAME (as import_store takes
it). The review reads the store and records proposals; it changes no memory.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from reviews.models import ReviewTrigger
from reviews.services.review import review_as_dict, start_review
from stores.errors import ConsoleError
from stores.management.base import JsonCommand
from stores.services.registry import STORE_SPEC_HELP, store_for_spec


class Command(JsonCommand):
    help = (
        "Review a store: propose set-aside merges, folds of near-duplicate notes, stale notes and notes "
        "close to a standing decision (and the model's rewrites, when REVIEW_MODEL is set). Changes no "
        "memory; a person adopts proposals in the console."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("store", help=f"The store: {STORE_SPEC_HELP}.")

    def run(self, **options: Any) -> dict[str, Any]:
        try:
            store = store_for_spec(options["store"])
            review = start_review(store=store, trigger=ReviewTrigger.COMMAND)
        except ConsoleError as exc:
            raise CommandError(exc.message) from exc
        return review_as_dict(review)

    def handle(self, *args: Any, **options: Any) -> None:
        if options.get("json"):
            super().handle(*args, **options)
            return
        self.verbosity = options.get("verbosity", 1)
        result = self.run(**options)
        proposals = result["proposals"]
        self.stdout.write(
            f"Review {result['review_id']} of {result['store_id']}: {result['memory_count']} notes read, "
            f"{len(proposals)} proposals ({result['status']})."
        )
        for p in proposals:
            self.stdout.write(f"- {p['id']} {p['kind']}: {', '.join(p['paths'])}")
            self.stdout.write(f"  {p['evidence'].get('summary', '')}")
        if result["notice"]:
            self.stdout.write(f"Notice: {result['notice']}")
        if proposals:
            self.stdout.write("Adopt or dismiss them in the console; nothing was changed. (--json prints them whole.)")
