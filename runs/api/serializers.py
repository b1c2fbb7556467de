"""Runs, records, snapshots, change feeds, set-aside texts and refusals, in and out of the wire.

As the memory-store bodies (stores/api/serializers.py): every field present, null when empty,
timestamps in UTC with a 'Z'; a known field of the wrong type is 400 naming it.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from stores.api.fields import (
    ConstantField,
    JsonListField,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    TimestampField,
    ts,
)
from stores.api.serializers import ActorField, page_of

# In --------------------------------------------------------------------------------------------


class RunStartIn(serializers.Serializer):
    ticket_key = StrictCharField(
        message="`ticket_key` is required: the Jira key of the ticket, such as ACME-123.",
        help_text="The Jira key of the ticket the run works, such as ACME-123.",
    )
    host = StrictCharField(
        message="`host` must be a string: the machine the run works on.", required=False, allow_null=True,
    )


def _flag(name: str) -> StrictBooleanField:
    return StrictBooleanField(message=f"`{name}` must be true or false.", required=False, allow_null=True)


class RunEndIn(serializers.Serializer):
    """The end-of-run signals; a run that hit one of them may be asked for a lesson."""

    qa_failed = _flag("qa_failed")
    needed_ruling = _flag("needed_ruling")
    worked_past_error = _flag("worked_past_error")
    attempts = StrictIntegerField(
        message="`attempts` must be a whole number of 1 or more.", min_value=1, required=False, allow_null=True,
    )


class RunLessonIn(serializers.Serializer):
    """The "nothing to record" answer; a lesson itself is a version written with the run token."""

    nothing_to_record = StrictBooleanField(
        message='Send {"nothing_to_record": true, "why": "..."}; to record a lesson instead, write it with the '
                "run token.",
    )
    why = StrictCharField(
        message="`why` is required: say in a sentence why the run left nothing worth recording.",
    )


class RunRecordIn(serializers.Serializer):
    """A part of the run's record: its transcript, its events, or both. Every part is kept."""

    transcript = StrictCharField(message="`transcript` must be a string.", required=False, allow_null=True)
    events = JsonListField(message="`events` must be a list.", required=False, allow_null=True)


# Out -------------------------------------------------------------------------------------------


class AttachmentOut(serializers.Serializer):
    """A store attached to the run: read_write (the project's, the agent's own) or read_only."""

    memory_store_id = serializers.CharField(read_only=True)
    kind = serializers.CharField(read_only=True)
    name = serializers.CharField(read_only=True)
    access = serializers.ChoiceField(choices=["read_write", "read_only"], read_only=True)
    folder = serializers.CharField(read_only=True)


@extend_schema_field(AttachmentOut(many=True))
class AttachmentsField(serializers.JSONField):
    """The attachments as the run stored them when it started: passed through unchanged."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)


class RunSignalsOut(serializers.Serializer):
    qa_failed = serializers.BooleanField(read_only=True)
    needed_ruling = serializers.BooleanField(read_only=True)
    worked_past_error = serializers.BooleanField(read_only=True)
    attempts = serializers.IntegerField(read_only=True)


class LessonAnswerOut(serializers.Serializer):
    nothing_to_record = serializers.SerializerMethodField()
    why = serializers.SerializerMethodField()
    memory_version_id = serializers.SerializerMethodField()
    at = TimestampField(source="lesson_answered_at")

    def get_nothing_to_record(self, run) -> bool:
        return bool(run.lesson_nothing_to_record)

    def get_why(self, run) -> str | None:
        return run.lesson_why or None

    def get_memory_version_id(self, run) -> str | None:
        return run.lesson_memory_version_id or None


class RunOut(serializers.Serializer):
    """A run; the signals both grouped (as /end takes them) and at the top level."""

    type = ConstantField("run")
    id = serializers.CharField(source="public_id", read_only=True)
    agent = serializers.CharField(source="agent.name", read_only=True)
    ticket_key = serializers.CharField(read_only=True)
    project_key = serializers.CharField(source="project.key", read_only=True)
    host = serializers.CharField(read_only=True)
    started_at = TimestampField()
    ended_at = TimestampField(allow_null=True)
    active = serializers.SerializerMethodField()
    signals = RunSignalsOut(source="*", read_only=True)
    qa_failed = serializers.BooleanField(read_only=True)
    needed_ruling = serializers.BooleanField(read_only=True)
    worked_past_error = serializers.BooleanField(read_only=True)
    attempts = serializers.IntegerField(read_only=True)
    versions_written = serializers.IntegerField(read_only=True)
    stores = AttachmentsField(source="attachments")
    lesson_prompt = serializers.SerializerMethodField()
    lesson_prompted_at = TimestampField(allow_null=True)
    lesson_answer = serializers.SerializerMethodField()
    lesson_closed_unanswered_at = TimestampField(allow_null=True)

    def get_active(self, run) -> bool:
        return run.ended_at is None

    def get_lesson_prompt(self, run) -> str | None:
        return (run.lesson_prompt or None) if run.lesson_prompted_at else None

    @extend_schema_field(LessonAnswerOut(allow_null=True))
    def get_lesson_answer(self, run) -> dict[str, Any] | None:
        return None if run.lesson_answered_at is None else LessonAnswerOut(run).data


class RunStartOut(serializers.Serializer):
    """A run just started: its token (shown once), the stores attached and the instructions."""

    type = ConstantField("run")
    id = serializers.CharField(source="run.public_id", read_only=True)
    token = serializers.CharField(read_only=True, help_text="The run's token (mcr_...), shown once.")
    agent = serializers.CharField(source="run.agent.name", read_only=True)
    ticket_key = serializers.CharField(source="run.ticket_key", read_only=True)
    project_key = serializers.CharField(source="run.project.key", read_only=True)
    stores = AttachmentsField(source="run.attachments")
    instructions = serializers.CharField(read_only=True, help_text="Markdown: how to use the run's memory.")


class RunRecordOut(serializers.Serializer):
    type = ConstantField("run_record")
    id = serializers.IntegerField(source="pk", read_only=True)
    run_id = serializers.CharField(source="run.public_id", read_only=True)
    created_at = TimestampField()
    transcript = serializers.CharField(read_only=True, allow_null=True)
    events = serializers.JSONField(read_only=True, allow_null=True)


class RunRecordsOut(serializers.Serializer):
    type = ConstantField("run_records")
    run_id = serializers.CharField(source="run.public_id", read_only=True)
    data = RunRecordOut(source="records", many=True, read_only=True)


class SyncMemoryOut(serializers.Serializer):
    """A memory as the run's sync sees it: live with its text, or deleted (text fields null)."""

    id = serializers.CharField(source="public_id", read_only=True)
    memory_store_id = serializers.CharField(read_only=True)
    path = serializers.CharField(read_only=True)
    deleted = serializers.SerializerMethodField()
    deleted_by_person = serializers.SerializerMethodField()
    content = serializers.SerializerMethodField()
    content_sha256 = serializers.SerializerMethodField()
    content_size_bytes = serializers.SerializerMethodField()
    memory_version_id = serializers.CharField(source="head_version_id", read_only=True)
    updated_at = TimestampField()
    change_seq = serializers.IntegerField(read_only=True)

    def get_deleted(self, row) -> bool:
        return row["deleted_at"] is not None

    def get_deleted_by_person(self, row) -> bool:
        return row["deleted_by_person"] if row["deleted_at"] is not None else False

    def get_content(self, row) -> str | None:
        return None if row["deleted_at"] is not None else row["content"]

    def get_content_sha256(self, row) -> str | None:
        return None if row["deleted_at"] is not None else row["content_sha256"]

    def get_content_size_bytes(self, row) -> int | None:
        return None if row["deleted_at"] is not None else row["size_bytes"]

    def to_representation(self, row: dict[str, Any]) -> dict[str, Any]:
        """The declared fields, in order, without DRF's walk field by field.

        A checkout renders every memory of every attached store (thousands of rows) and DRF's walk
        is about five times slower; tests/runs/test_run_serializers.py holds the two equal.
        """
        deleted = row["deleted_at"] is not None
        return {
            "id": row["public_id"],
            "memory_store_id": row["memory_store_id"],
            "path": row["path"],
            "deleted": deleted,
            "deleted_by_person": row["deleted_by_person"] if deleted else False,
            "content": None if deleted else row["content"],
            "content_sha256": None if deleted else row["content_sha256"],
            "content_size_bytes": None if deleted else row["size_bytes"],
            "memory_version_id": row["head_version_id"],
            "updated_at": ts(row["updated_at"]),
            "change_seq": row["change_seq"],
        }


class SnapshotStoreOut(AttachmentOut):
    """An attached store with every live memory in it, full text included."""

    memories = SyncMemoryOut(many=True, read_only=True)

    def to_representation(self, instance: dict[str, Any]) -> dict[str, Any]:
        # The attachment as stored, then its memories: what the run was given is passed on unchanged.
        memories = self.fields["memories"].to_representation(instance["memories"])
        return {**{k: v for k, v in instance.items() if k != "memories"}, "memories": memories}


class RunSnapshotOut(serializers.Serializer):
    """Every file of every attached store in one answer, for checkout, and the cursor to go on from."""

    type = ConstantField("run_snapshot")
    run = RunOut(read_only=True)
    instructions = serializers.CharField(read_only=True)
    stores = SnapshotStoreOut(many=True, read_only=True)
    cursor = serializers.CharField(read_only=True, help_text="Pass it to /changes (chg_...).")


class RunChangesOut(serializers.Serializer):
    """What changed since the cursor: live memories with text, deletions by id; `more` when cut short."""

    type = ConstantField("run_changes")
    run_active = serializers.BooleanField(read_only=True)
    changes = SyncMemoryOut(many=True, read_only=True)
    cursor = serializers.CharField(read_only=True)
    more = serializers.BooleanField(read_only=True)


class SetAsideOut(serializers.Serializer):
    """A text that lost a race to the saved copy, kept for a person."""

    type = ConstantField("set_aside")
    id = serializers.CharField(source="public_id", read_only=True)
    memory_id = serializers.CharField(source="memory.public_id", read_only=True)
    memory_store_id = serializers.CharField(source="store.public_id", read_only=True)
    path = serializers.CharField(read_only=True)
    text = serializers.CharField(read_only=True)
    base_version_id = serializers.SerializerMethodField()
    lost_to_version_id = serializers.SerializerMethodField()
    created_by = ActorField(allow_null=True)
    created_at = TimestampField()
    status = serializers.ChoiceField(choices=["open", "used", "dismissed"], read_only=True)

    def get_base_version_id(self, item) -> str | None:
        return item.base_version_id or None

    def get_lost_to_version_id(self, item) -> str | None:
        return item.lost_to_version_id or None


SetAsidePage = page_of(SetAsideOut, "SetAsidePage")


class RefusalOut(serializers.Serializer):
    """A refused change, never its text."""

    type = ConstantField("refusal")
    id = serializers.IntegerField(source="pk", read_only=True)
    memory_store_id = serializers.CharField(source="store.public_id", read_only=True)
    path = serializers.CharField(read_only=True)
    operation = serializers.CharField(read_only=True)
    door = serializers.CharField(read_only=True)
    reason_code = serializers.CharField(source="code", read_only=True)
    message = serializers.CharField(read_only=True)
    # A keyed fingerprint (equal for resends of one text), never a plain hash of the refused text.
    content_fingerprint = serializers.SerializerMethodField()
    created_by = ActorField(source="writer", allow_null=True)
    run_id = serializers.SerializerMethodField()
    times = serializers.IntegerField(read_only=True)
    created_at = TimestampField()
    last_seen_at = TimestampField()

    def get_content_fingerprint(self, item) -> str | None:
        return item.content_fingerprint or None

    def get_run_id(self, item) -> str | None:
        return item.run_public_id or None


RefusalPage = page_of(RefusalOut, "RefusalPage")
