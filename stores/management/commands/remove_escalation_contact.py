"""`manage.py remove_escalation_contact KEY USERNAME`: withdraw a person from a project's contacts."""

from __future__ import annotations

from typing import Any

from stores.errors import ConsoleError
from stores.management.base import JsonCommand, fail
from stores.services.escalation_contacts import escalation_contact_remove


class Command(JsonCommand):
    help = (
        "Remove a person from a Jira project's escalation contacts. Their access to the project store "
        "in the console and through their API token ends at once."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("key", help="The Jira project key, such as ACME.")
        parser.add_argument("username", help="The person's username.")

    def run(self, **options: Any) -> dict[str, Any]:
        try:
            project, user = escalation_contact_remove(key=options["key"], username=options["username"])
        except ConsoleError as exc:
            raise fail(exc.message) from exc
        return {"key": project.key, "username": user.get_username()}
