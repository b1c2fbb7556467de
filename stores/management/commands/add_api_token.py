"""add_api_token USERNAME -> {username, token} (a person's token, shown once)"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from stores.errors import ConsoleError
from stores.management.base import JsonCommand
from stores.services.registry import person_token_issue


class Command(JsonCommand):
    help = "Issue an API token for a person. The token is shown once; keep it."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")

    def run(self, **options: Any) -> dict[str, Any]:
        try:
            user, _, token = person_token_issue(username=options["username"])
        except ConsoleError as exc:
            raise CommandError(exc.message) from exc
        return {"username": user.get_username(), "token": token}
