"""Naming and removing a project's escalation contacts.

Each change calls ``grants.escalation_contacts_sync`` in the same transaction, so the person's
permission on the project store follows at once; the admin's project page calls that same service
after saving the contacts (``JiraProjectAdmin.save_related``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from stores.errors import InvalidRequest
from stores.models import JiraProject

from .grants import escalation_contacts_sync
from .registry import person_get, project_get


@transaction.atomic
def escalation_contact_add(*, key: str, username: str) -> tuple[JiraProject, Any]:
    """Name a person as an escalation contact of a project. Naming them again changes nothing."""
    project = project_get(key)
    user = person_get(username)
    if not user.is_active:
        raise InvalidRequest(f"The account '{user.get_username()}' is not active; activate it first.")
    project.escalation_contacts.add(user)
    escalation_contacts_sync(project)
    return project, user


@transaction.atomic
def escalation_contact_remove(*, key: str, username: str) -> tuple[JiraProject, Any]:
    """Remove a person from a project's escalation contacts. Removing someone not named changes nothing."""
    project = project_get(key)
    user = person_get(username)
    project.escalation_contacts.remove(user)
    escalation_contacts_sync(project)
    return project, user
