"""People's per-store permissions (django-guardian), derived from a project's escalation contacts.

``escalation_contacts_sync`` is the one writer of these grants; ``stores.access`` is their one reader.
Every door that changes a project's contacts calls it: the contact services (the commands), the
admin's project page (``save_related``) and the demo seed.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from guardian.shortcuts import assign_perm, get_users_with_perms, remove_perm

from stores.access import MANAGE_PERM as PERM
from stores.models import JiraProject, Store


def escalation_contacts_sync(project: JiraProject) -> None:
    """Grant the project store to exactly the project's escalation contacts, at once."""
    store = Store.objects.filter(project=project).first()
    if store is None:
        return
    wanted = set(project.escalation_contacts.values_list("pk", flat=True))
    holders = {
        user.pk
        for user, perms in get_users_with_perms(store, attach_perms=True, with_superusers=False).items()
        if PERM in perms
    }
    User = get_user_model()
    for user in User.objects.filter(pk__in=wanted - holders):
        assign_perm(PERM, user, store)
    for user in User.objects.filter(pk__in=holders - wanted):
        remove_perm(PERM, user, store)
