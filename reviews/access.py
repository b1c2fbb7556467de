"""Who reviews a store: whoever may edit its notes (console admins everywhere, escalation contacts
in their projects' stores); agents never. The same person rule as every change (``person_may``)."""

from __future__ import annotations

from stores.console_checks.reasons import Reason
from stores.console_checks.who import person_may, person_not_permitted
from stores.errors import PermissionDenied
from stores.models import Store
from stores.operations import Operation


def may_review(user, store: Store) -> bool:
    """True when this person may start a review of ``store`` and adopt or dismiss its proposals."""
    return bool(user is not None and user.is_active and person_may(user, store, Operation.UPDATE, "review"))


def require_may_review(user, store: Store, asked: str) -> None:
    """Raise PermissionDenied unless ``may_review`` (``person_not_permitted``, naming what the role allows)."""
    if user is None or not getattr(user, "is_active", False):
        raise PermissionDenied("Only people who may edit the store review it.", code=Reason.PEOPLE_ONLY)
    if not may_review(user, store):
        decision = person_not_permitted(user, store, asked)
        raise PermissionDenied(decision.message, code=decision.code)
