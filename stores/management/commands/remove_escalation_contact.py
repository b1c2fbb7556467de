"""`manage.py remove_escalation_contact KEY USERNAME`: withdraw a person from a project's contacts."""

from __future__ import annotations

from stores.services.escalation_contacts import escalation_contact_remove

from .add_escalation_contact import Command as AddCommand


class Command(AddCommand):
    service = staticmethod(escalation_contact_remove)
    help = (
        "Remove a person from a Jira project's escalation contacts. Their access to the project store "
        "in the console and through their API token ends at once."
    )
