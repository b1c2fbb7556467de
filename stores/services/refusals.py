"""Recording refusals and set-aside texts, once each, after the refused change rolled back.

``recording_refusals(work)`` is the boundary every changing service runs its work in. Services
nest (using a set-aside text updates the memory), so only the outermost boundary records: after
its own transaction (or savepoint) has rolled back, whatever the caller's transaction depth, and
once, however many services the refusal passed through on its way out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, TypeVar

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from stores.console_checks.what_secrets import path_without_secret
from stores.errors import ConsoleError, Refused
from stores.models import Memory, Refusal, SetAside

from .content import keyed_fingerprint

T = TypeVar("T")

# The purpose of the keyed fingerprint a refusal keeps of the refused text (for de-duplication only).
REFUSAL_FINGERPRINT = "refusal-content"

# True while a boundary is open in this thread (or task): an inner boundary leaves the recording to it.
_boundary_open: ContextVar[bool] = ContextVar("refusal_boundary_open", default=False)


def recording_refusals(work: Callable[[], T]) -> T:
    """Run ``work`` atomically; if it is refused, roll back, then record what it must leave behind.

    What is recorded: the refusal (a checks refusal, once per writer, path, text and code) and the
    losing text a refusal or a path conflict carries (kept aside once). Only the outermost boundary
    records, so a service called inside another service's transaction never records a refusal that
    the outer rollback would erase, and no caller has to catch and re-raise to keep the record.
    The error leaves with the set-aside's id in ``details``. A caller holding a transaction of its
    own gets the record inside it (written after the service's savepoint rolled back), so a caller
    that catches the refusal and commits keeps it; one that lets the refusal roll back its whole
    transaction undoes the record with everything else it did.
    """
    if _boundary_open.get():
        with transaction.atomic():
            return work()
    token = _boundary_open.set(True)
    try:
        with transaction.atomic():
            return work()
    except ConsoleError as error:
        _boundary_open.reset(token)
        token = None
        record_refused(error)
        raise
    finally:
        if token is not None:
            _boundary_open.reset(token)


def record_refused(error: ConsoleError) -> None:
    """Keep aside the losing text ``error`` carries and record it if the checks refused it."""
    if error.set_aside is not None:
        kept = set_aside_record(error.set_aside)
        error.details["set_aside_id"] = kept.public_id
    if isinstance(error, Refused):
        refusal_record(error)


def _storable(text: str) -> str:
    """The text with any lone surrogate or NUL written as its escape, so it can be stored."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8").replace("\x00", "\\x00")


def refusal_fingerprint(content: str | None) -> str:
    """The keyed fingerprint a refusal keeps of the refused text ("" for a change without text).

    Never an unkeyed hash: a refused text is often a secret, and a hash would confirm a guess of it.
    """
    if content is None:
        return ""
    try:
        sha = hashlib.sha256(content.encode("utf-8")).hexdigest()
    except UnicodeEncodeError:
        sha = hashlib.sha256(content.encode("utf-8", "surrogatepass")).hexdigest()
    return keyed_fingerprint(REFUSAL_FINGERPRINT, sha)


def refusal_record(refused: Refused) -> Refusal:
    """Record a refused change: one row per (writer, path, text fingerprint, code); never the text.

    The message kept is the decision's record-safe one (the code's finding, its kind and line),
    not the answer the writer got, which may quote the refused passage so it can be rewritten.
    """
    req = refused.request
    # A path may hold a lone surrogate (JSON "\udce9"), which no database encodes: keep it escaped.
    # It may carry a secret too: the path field keeps the secret's type in its place (scrubbed as it
    # is saved and looked up, then cut to the column), never the value; a value the path's words
    # give (a password after "password") is put as its type here, as the field cannot read words.
    path = _storable(path_without_secret(req.path or req.old_path or ""))
    key = {
        "store": req.store,
        "writer_key": req.writer.key,
        "path": path,
        "content_fingerprint": refusal_fingerprint(req.content),
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
                    # The record-safe message: the finding by kind and line, never the refused passage.
                    message=_storable(refused.decision.for_record),
                )
        except IntegrityError:  # the same refusal, recorded by a concurrent resend
            return Refusal.objects.get(**key)


def set_aside_record(info: dict[str, Any]) -> SetAside:
    """Keep aside a losing text, once per writer, memory, base and text.

    A stale update's base is the copy it was written on; a lost create has no common ancestor
    with the memory it lost to, so its base is empty (a later merge of it is two-way).
    """
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
