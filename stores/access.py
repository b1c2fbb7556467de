"""Person access: which stores a person manages (deletes, restores and redacts memories in).

One rule, read by the who-check (a person's change) and by the selectors (a person's reads):
console admins manage every store; any other person manages the stores they hold the object
permission ``manage_store_memories`` on (django-guardian). The permission is granted and withdrawn
by one service, ``stores.services.grants.escalation_contacts_sync``, which every door that names or
removes a project's escalation contacts calls (the commands, the admin, the demo seed).
"""

from __future__ import annotations

from django.db.models import QuerySet
from guardian.core import ObjectPermissionChecker
from guardian.shortcuts import get_objects_for_user

from .models import Store

MANAGE_PERM = "manage_store_memories"
MANAGE_PERM_LABEL = f"stores.{MANAGE_PERM}"


def person_manages_store(user, store: Store) -> bool:
    """True when this person may delete, restore and redact memories in ``store``."""
    if not user.is_active:
        return False
    if user.is_superuser:
        return True
    return ObjectPermissionChecker(user).has_perm(MANAGE_PERM, store)


def stores_person_manages(user, qs: QuerySet[Store] | None = None) -> QuerySet[Store]:
    """The stores (of ``qs``, every store by default) this person manages: all for admins."""
    qs = Store.objects.all() if qs is None else qs
    if not user.is_active:
        return qs.none()
    if user.is_superuser:
        return qs
    return get_objects_for_user(user, MANAGE_PERM_LABEL, klass=qs, accept_global_perms=False, with_superuser=False)
