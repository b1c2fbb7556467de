"""Runs, records, snapshots, change feeds, set-aside texts and refusals, in and out of the wire.

As the memory-store bodies (stores/api/serializers.py): every field present, null when empty,
timestamps in UTC with a 'Z'; a known field of the wrong type is 400 naming it.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
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
from stores.services.search import MAX_QUERY_CHARS

from ..search import MAX_LIMIT, OUTCOMES

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


# Searching run records (people) ---------------------------------------------------------------


def _messages(name: str, what: str, **extra: str) -> dict[str, str]:
    """DRF's error messages for a query parameter, each naming it and what it takes."""
    base = {"invalid": f"`{name}` must be {what}.", "blank": f"`{name}` must be {what}.",
            "required": f"`{name}` is required: {what}.", "null": f"`{name}` must be {what}."}
    return {**base, **extra}


class DayOrTimeField(serializers.Field):
    """A day (2026-11-01) or an RFC 3339 timestamp; read as (aware datetime, whether it was a day)."""

    def __init__(self, name: str, **kwargs: Any) -> None:
        self.param = name
        kwargs.setdefault("required", False)
        kwargs.setdefault("help_text", "A day (YYYY-MM-DD) or an RFC 3339 timestamp.")
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> tuple[datetime, bool]:
        problem = f"`{self.param}` must be a day such as 2026-11-01 or an RFC 3339 timestamp such as 2026-11-01T09:00:00Z."
        if not isinstance(data, str) or not data.strip():
            raise serializers.ValidationError(problem)
        raw = data.strip().replace(" ", "+")
        try:
            day = parse_date(raw)
            if day is not None:
                at = timezone.make_aware(datetime.combine(day, time.min), timezone.get_current_timezone())
                return at.astimezone(UTC), True
            at = parse_datetime(raw)
            if at is None:
                raise serializers.ValidationError(problem)
            if at.tzinfo is None:
                at = at.replace(tzinfo=UTC)
            return at.astimezone(UTC), False
        except (ValueError, OverflowError) as exc:
            raise serializers.ValidationError(problem) from exc

    def to_representation(self, value: Any) -> Any:
        return value


class OutcomeListField(serializers.ListField):
    """`outcome`, repeated or comma-separated: any of the run signals."""

    def to_internal_value(self, data: Any) -> list[str]:
        items = [data] if isinstance(data, str) else list(data or [])
        names = [part.strip() for item in items for part in str(item).split(",") if part.strip()]
        unknown = [n for n in names if n not in OUTCOMES]
        if unknown:
            raise serializers.ValidationError(
                f"`outcome` must be any of {', '.join(OUTCOMES)}; {unknown[0][:40]!r} is not one."
            )
        return list(dict.fromkeys(names))


class RunRecordSearchIn(serializers.Serializer):
    """The query parameters of GET /v1/run_records: every one checked, a wrong one named in a 400."""

    q = serializers.CharField(
        max_length=MAX_QUERY_CHARS, trim_whitespace=True,
        error_messages=_messages("q", 'the words to look for (words, "a phrase", OR, -word)',
                                 max_length=f"`q` is at most {MAX_QUERY_CHARS} characters long."),
        help_text='Words to find: words, "a phrase", OR between words, -word to leave one out, word* for a prefix.',
    )
    project = serializers.CharField(required=False, allow_blank=True, max_length=32,
                                    error_messages=_messages("project", "a Jira project key such as ACME",
                                                             max_length="`project` is at most 32 characters."))
    ticket = serializers.CharField(required=False, allow_blank=True, max_length=64,
                                   error_messages=_messages("ticket", "a Jira ticket key such as ACME-123",
                                                            max_length="`ticket` is at most 64 characters."))
    agent = serializers.CharField(required=False, allow_blank=True, max_length=150,
                                  error_messages=_messages("agent", "a hosted agent's name",
                                                           max_length="`agent` is at most 150 characters."))
    after = DayOrTimeField("after", help_text="Records kept at or after this time, or on or after this day.")
    before = DayOrTimeField("before", help_text="Records kept before this time, or on or before this day.")
    outcome = OutcomeListField(child=serializers.CharField(), required=False,
                               help_text=f"Any of {', '.join(OUTCOMES)} (repeated or comma-separated).")
    limit = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_LIMIT,
        error_messages=_messages("limit", f"a whole number from 1 to {MAX_LIMIT}",
                                 min_value=f"`limit` must be from 1 to {MAX_LIMIT}.",
                                 max_value=f"`limit` must be from 1 to {MAX_LIMIT}.",
                                 max_string_length=f"`limit` must be from 1 to {MAX_LIMIT}."),
    )
    page = serializers.CharField(required=False, allow_blank=True, max_length=2000,
                                 error_messages=_messages("page", "the `next_page` of the previous page, unchanged",
                                                          max_length="`page` is not a cursor this API gave out."))

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        after, before = attrs.pop("after", None), attrs.pop("before", None)
        attrs["kept_from"] = after[0] if after else None
        # A day given as `before` includes the day: the bound is the start of the next one.
        attrs["kept_before"] = (before[0] + timedelta(days=1) if before[1] else before[0]) if before else None
        return attrs


class RunRecordHitOut(serializers.Serializer):
    """A run record that matches: its run, when it ran, how it ended, and the passage, highlighted."""

    type = ConstantField("run_record_hit")
    run_id = serializers.CharField(source="record.run.public_id", read_only=True)
    ticket_key = serializers.CharField(source="record.run.ticket_key", read_only=True)
    project_key = serializers.CharField(source="record.project.key", read_only=True)
    agent = serializers.CharField(source="record.run.agent.name", read_only=True)
    started_at = TimestampField(source="record.run.started_at")
    ended_at = TimestampField(source="record.run.ended_at", allow_null=True)
    signals = serializers.ListField(
        child=serializers.ChoiceField(choices=list(OUTCOMES)), read_only=True,
        help_text="How the run ended: any of " + ", ".join(OUTCOMES) + ".",
    )
    snippet = serializers.CharField(
        read_only=True,
        help_text="The matching passage as HTML: the record's text escaped, each match in <mark>…</mark>.",
    )


RunRecordHitPage = page_of(RunRecordHitOut, "RunRecordHitPage")
