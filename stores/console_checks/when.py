"""When: a change based on an old copy loses; a run may not bring back what a person deleted."""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings
from django.db.models import Q

from stores.models import Memory
from stores.operations import Operation

from .reasons import Reason
from .request import ChangeRequest, Decision, refuse

# Where a redaction keeps the keyed fingerprint of the path it blanked (inside ``redacted_by``).
PATH_FINGERPRINT_KEY = "path_fingerprint"


def path_fingerprint(store_pk: int, path: str) -> str:
    """A keyed, one-way fingerprint of a path in a store: enough to recognise it, never to read it back.

    A redaction blanks a deleted memory's path for good, yet a run that started before the person's
    delete must still lose a change that would bring the memory back; this lets the check know the path.
    """
    key = hashlib.sha256(b"memory-console/redacted-path/" + settings.SECRET_KEY.encode("utf-8")).digest()
    return hmac.new(key, f"{store_pk}:{path}".encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()


def check_deleted_by_person(req: ChangeRequest) -> Decision | None:
    """A run loses a create at a path whose memory a person deleted after the run started (redacted or not)."""
    run = req.writer.run
    if run is None or req.path is None or req.operation not in (Operation.CREATE, Operation.UPDATE):
        return None
    if req.operation == Operation.UPDATE and req.current is not None and req.path == req.current.path:
        return None
    same_path = Q(path=req.path) | Q(
        redacted_at__isnull=False, **{f"redacted_by__{PATH_FINGERPRINT_KEY}": path_fingerprint(req.store.pk, req.path)}
    )
    deleted = (
        Memory.objects.filter(same_path, store=req.store, deleted_by_person=True, deleted_at__gte=run.started_at)
        .order_by("-deleted_at")
        .first()
    )
    if deleted is None:
        return None
    who = (deleted.deleted_by or {}).get("name", "a person")
    return refuse(
        Reason.DELETED_BY_PERSON,
        f"{req.path} was deleted by {who} after this run started; this run's change to it is dropped.",
    )


def check_stale_base(req: ChangeRequest) -> Decision | None:
    """An update or delete made on an old copy loses to the saved copy."""
    current = req.current
    if current is None or req.base_sha256 is None or req.base_sha256 == current.content_sha256:
        return None
    if req.operation == Operation.UPDATE:
        same_content = req.content is None or req.content == current.content
        same_path = req.path is None or req.path == current.path
        if same_content and same_path:
            return None  # a resend of a change already saved: the service answers 200
    return refuse(
        Reason.STALE_BASE,
        f"{current.path} changed since the copy this change was based on (the saved copy wins). "
        "Read the saved copy and apply the change again."
        + (" Your text was kept aside for a person to fold in." if req.operation == Operation.UPDATE and req.content else ""),
    )
