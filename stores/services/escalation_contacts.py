"""Naming and removing a project's escalation contacts.

The m2m_changed signal on JiraProject.escalation_contacts calls grants.escalation_contacts_sync,
so the person's permission on the project store follows at once, from this door as from the admin.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from stores.errors import InvalidRequest
from stores.models import JiraProject

from .registry import person_get, project_get


@transaction.atomic
def escalation_contact_add(*, key: str, username: str) -> tuple[JiraProject, Any]:
    """Name a person as an escalation contact of a project. Naming them again changes nothing."""
    project = project_get(key)
    user = person_get(username)
    if not user.is_active:
        raise InvalidRequest(f"The account '{user.get_username()}' is not active; activate it first.")
    project.escalation_contacts.add(user)
    return project, user


@transaction.atomic
def escalation_contact_remove(*, key: str, username: str) -> tuple[JiraProject, Any]:
    """Remove a person from a project's escalation contacts. Removing someone not named changes nothing."""
    project = project_get(key)
    user = person_get(username)
    project.escalation_contacts.remove(user)
    return project, user
