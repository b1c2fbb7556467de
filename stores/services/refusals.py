"""Recording refusals and set-aside texts, once each, after the refused change rolled back."""

from __future__ import annotations

import hashlib
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from stores.console_checks.detectors import secrets
from stores.errors import Refused
from stores.models import Memory, Refusal, SetAside


def _storable(text: str) -> str:
    """The text with any lone surrogate or NUL written as its escape, so it can be stored."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8").replace("\x00", "\\x00")


def refusal_record(refused: Refused) -> Refusal:
    """Record a refused change: one row per (writer, path, content hash, code); never the text."""
    req = refused.request
    # A path may hold a lone surrogate (JSON "\udce9"), which no database encodes: keep it escaped.
    # and a path may carry a secret: the record keeps its type in its place, never the value.
    path = _storable(secrets.redact(req.path or req.old_path or ""))
    content_sha = ""
    if req.content is not None:
        try:
            content_sha = hashlib.sha256(req.content.encode("utf-8")).hexdigest()
        except UnicodeEncodeError:
            content_sha = hashlib.sha256(req.content.encode("utf-8", "surrogatepass")).hexdigest()
    key = {
        "store": req.store,
        "writer_key": req.writer.key,
        "path": path[:1100],
        "content_sha256": content_sha,
        "code": refused.code,
    }
    with transaction.atomic():
        updated = Refusal.objects.filter(**key).update(times=F("times") + 1, last_seen_at=timezone.now())
        if updated:
            return Refusal.objects.get(**key)
        try:
            with transaction.atomic():
                return Refusal.objects.create(
                    **key,
                    writer=req.writer.actor,
                    run_public_id=req.writer.run.public_id if req.writer.run else "",
                    operation=req.operation,
                    door=req.writer.door,
                    message=_storable(refused.message),
                )
        except IntegrityError:  # the same refusal, recorded by a concurrent resend
            return Refusal.objects.get(**key)


def set_aside_record(info: dict[str, Any]) -> SetAside:
    """Keep aside the losing text of a stale update, once per writer, memory, base and text."""
    text: str = info["text"]
    text_sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    memory = Memory.objects.get(pk=info["memory_pk"])
    key = {
        "memory": memory,
        "writer_key": info["writer_key"],
        "base_sha256": info["base_sha256"],
        "text_sha256": text_sha,
    }
    existing = SetAside.objects.filter(**key).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            return SetAside.objects.create(
                **key,
                store_id=memory.store_id,
                path=info["path"],
                text=text,
                base_version_id=info.get("base_version_id", ""),
                lost_to_version_id=info["lost_to_version_id"],
                created_by=info["actor"],
            )
    except IntegrityError:
        return SetAside.objects.get(**key)
