"""set_agent NAME [--active | --inactive] [--jira-account-id ID] -> {name, active}"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from stores.errors import ConsoleError
from stores.management.base import JsonCommand
from stores.services.registry import agent_set


class Command(JsonCommand):
    help = "Switch a hosted agent on or off, or change its Jira account id (an empty id clears it)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("name")
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--active", dest="active", action="store_const", const=True, default=None)
        group.add_argument("--inactive", dest="active", action="store_const", const=False)
        parser.add_argument("--jira-account-id", default=None)

    def run(self, **options: Any) -> dict[str, Any]:
        try:
            agent = agent_set(
                name=options["name"], active=options["active"], jira_account_id=options["jira_account_id"]
            )
        except ConsoleError as exc:
            raise CommandError(exc.message) from exc
        return {"name": agent.name, "active": agent.active}
