"""add_agent NAME [--jira-account-id ID] -> {name, token, memory_store_id} (the token is shown once)"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from stores.errors import ConsoleError
from stores.management.base import JsonCommand
from stores.services.registry import agent_add


class Command(JsonCommand):
    help = "Register a hosted agent and issue its API token. The token is shown once; keep it."

    def add_arguments(self, parser) -> None:
        parser.add_argument("name", help="A lower-case slug; it names the agent's folder, /agents/<name>/.")
        parser.add_argument(
            "--jira-account-id", default="", help="The agent's Jira account id, to check ticket assignment."
        )

    def run(self, **options: Any) -> dict[str, Any]:
        try:
            agent, token = agent_add(name=options["name"], jira_account_id=options["jira_account_id"])
        except ConsoleError as exc:
            raise CommandError(exc.message) from exc
        return {"name": agent.name, "token": token, "memory_store_id": agent.store.public_id}
