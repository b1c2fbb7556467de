"""`manage.py add_escalation_contact KEY USERNAME`: name a person as a project's escalation contact."""

from __future__ import annotations

from typing import Any

from stores.errors import ConsoleError
from stores.management.base import JsonCommand, fail
from stores.services.escalation_contacts import escalation_contact_add


class Command(JsonCommand):
    service = staticmethod(escalation_contact_add)
    help = (
        "Name a person as an escalation contact of a Jira project. They may then view, delete, restore "
        "and redact the project store's memories in the console, at once."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("key", help="The Jira project key, such as ACME.")
        parser.add_argument("username", help="The person's username.")

    def run(self, **options: Any) -> dict[str, Any]:
        try:
            project, user = self.service(key=options["key"], username=options["username"])
        except ConsoleError as exc:
            raise fail(exc.message) from exc
        return {"key": project.key, "username": user.get_username()}
