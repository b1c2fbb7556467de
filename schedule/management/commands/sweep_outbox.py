"""``manage.py sweep_outbox``: publish the follow-up tasks a broker outage held back, by hand."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from schedule.models import OutboxMessage
from schedule.outbox import outbox_sweep
from stores.management.base import JsonCommand


class Command(JsonCommand):
    help = "Publish the Celery tasks waiting in the outbox; prints {sent, failed, pending}."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dry-run", action="store_true", help="Count the waiting tasks; publish nothing."
        )

    def run(self, **options: Any) -> dict[str, Any]:
        if options["dry_run"]:
            return {"sent": 0, "failed": 0, "pending": OutboxMessage.objects.count(), "dry_run": True}
        return {**outbox_sweep().as_dict(), "dry_run": False}
