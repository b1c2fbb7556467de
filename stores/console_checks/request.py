"""The values the pipeline works on: who writes, what change they ask for, and the decision."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from stores.operations import Operation

from .reasons import status_for

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    from runs.models import Run
    from stores.models import HostedAgent, Memory, Store

# "review": a person adopting an automated review's proposal; "promotion": an approved promotion landing.
Door = Literal["api", "sync", "console", "admin", "import", "task", "review", "promotion"]


@dataclass(frozen=True)
class Writer:
    """Who asks for a change: an agent (with its own token or a run's), or a person."""

    agent: HostedAgent | None = None
    user: AbstractBaseUser | None = None
    run: Run | None = None
    api_key_id: str = ""
    door: Door = "api"

    @property
    def is_agent(self) -> bool:
        return self.agent is not None

    @property
    def is_person(self) -> bool:
        return self.agent is None and self.user is not None

    @property
    def is_admin(self) -> bool:
        return bool(self.is_person and self.user.is_active and self.user.is_superuser)

    @property
    def name(self) -> str:
        if self.agent is not None:
            return self.agent.name
        if self.user is not None:
            return self.user.get_username()
        return "console"

    @property
    def key(self) -> str:
        """A stable key for de-duplicating what this writer resends."""
        if self.run is not None:
            return f"run:{self.run.public_id}"
        if self.agent is not None:
            return f"agent:{self.agent.pk}"
        if self.user is not None:
            return f"user:{self.user.pk}"
        return "system"

    @property
    def actor(self) -> dict[str, Any]:
        """The actor object of the reference's section 0, with the writer's name beside it."""
        if self.run is not None:
            return {"type": "session_actor", "session_id": self.run.public_id, "name": self.name}
        if self.api_key_id:
            return {"type": "api_actor", "api_key_id": self.api_key_id, "name": self.name}
        if self.user is not None:
            return {"type": "user_actor", "user_id": f"user_{self.user.pk}", "name": self.name}
        return {"type": "user_actor", "user_id": "user_console", "name": self.name}


@dataclass(frozen=True)
class ReadWithLock:
    """What a service read in the very statement that locked the store, so no check asks for it again.

    The client-detail check needs the client registry's version (to know whether its matcher is
    current) and, in a project store, the name of the project's client; a create reads both beside
    the store's row (``what_client_detail.LOCK_READS``), saving two round trips on every create.
    """

    registry_version: int | None
    own_client: str | None


@dataclass(frozen=True)
class ChangeRequest:
    """One change asked of a store. ``current`` is the memory as saved, read under the store's lock.

    ``read_with_lock`` is what the service already read with that lock, when it did; a check reads
    for itself whatever it does not hold.
    """

    writer: Writer
    store: Store
    operation: Operation
    path: str | None = None  # the path the change brings (create, rename target, restore)
    old_path: str | None = None  # the path it changes (update, delete)
    content: str | None = None  # the text the change brings, if any
    base_sha256: str | None = None
    current: Memory | None = None
    read_with_lock: ReadWithLock | None = None

    @property
    def brought_path(self) -> str | None:
        """The path this change brings: a new one (create, rename, restore), not the one a memory keeps."""
        if self.path is None or (self.current is not None and self.path == self.current.path):
            return None
        return self.path


@dataclass(frozen=True)
class Decision:
    """Allowed, or refused with a stable reason code and a message a person can act on.

    A refusal has two messages. ``message`` answers the writer: it may quote the refused passage
    (a sentence, a client's name) so an agent can rewrite the lesson. ``record_message`` is what
    the console keeps in its Refusal record: the same finding by kind and line, never a quote,
    because the refused text must not survive the refusal. It is empty when ``message`` quotes
    nothing of the refused text and can be kept as it is.
    """

    code: str | None = None
    message: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    record_message: str = ""

    @property
    def allowed(self) -> bool:
        return self.code is None

    @property
    def status(self) -> int:
        return status_for(self.code) if self.code else 200

    @property
    def for_record(self) -> str:
        """The message a Refusal keeps: the record-safe one, or the writer's when it quotes nothing."""
        return self.record_message or self.message


ALLOWED = Decision()


def refuse(code: str, message: str, *, record_message: str = "", **details: Any) -> Decision:
    """A refusal: ``message`` for the writer; ``record_message`` (no quote of the refused text) for the
    record, needed whenever ``message`` quotes what was refused."""
    return Decision(code=str(code), message=message, details=details, record_message=record_message)
