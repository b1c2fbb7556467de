"""When: a change based on an old copy loses; a run may not bring back what a person deleted."""

from __future__ import annotations

from stores.models import Memory

from .reasons import Reason
from .request import ChangeRequest, Decision, refuse


def check_deleted_by_person(req: ChangeRequest) -> Decision | None:
    """A run loses a create at a path whose memory a person deleted after the run started."""
    run = req.writer.run
    if run is None or req.path is None or req.operation not in ("create", "update"):
        return None
    if req.operation == "update" and req.current is not None and req.path == req.current.path:
        return None
    deleted = (
        Memory.objects.filter(
            store=req.store, path=req.path, deleted_by_person=True, deleted_at__gte=run.started_at
        )
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
    if req.operation == "update":
        same_content = req.content is None or req.content == current.content
        same_path = req.path is None or req.path == current.path
        if same_content and same_path:
            return None  # a resend of a change already saved: the service answers 200
    return refuse(
        Reason.STALE_BASE,
        f"{current.path} changed since the copy this change was based on (the saved copy wins). "
        "Read the saved copy and apply the change again."
        + (" Your text was kept aside for a person to fold in." if req.operation == "update" and req.content else ""),
    )
