"""Redact all versions reaches a record that quoted a note in part, not only whole quotes.

A run record that quoted the first words of a note (a person's name among them) loses them when
the note is redacted: any run of PASSAGE_WORDS consecutive words of one of its versions is
replaced by ``[REDACTED:memory]``; stock phrases shorter than that stay.
"""

from __future__ import annotations

import secrets

import pytest
from django.utils import timezone

from runs.models import Run, RunRecord
from runs.search import record_search
from stores.models import hash_token
from stores.services.memories import memory_delete, memory_update
from stores.services.redaction import (
    PASSAGE_WORDS,
    REDACTED_QUOTE,
    memory_redact_all_versions,
    redacted_texts,
)
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

FIRST = "Marguerite Okonkwo-Baptiste approves every refund over 500 EUR for the Lyon shop"
SECOND = "Marguerite Okonkwo-Baptiste now approves refunds over 800 EUR, by email only"


def record(world, transcript: str, events=None, project=None) -> RunRecord:
    project = project or world.project
    run = Run.objects.create(agent=world.agent, project=project, ticket_key=f"{project.key}-9",
                             token_hash=hash_token(secrets.token_hex(16)))
    return RunRecord.objects.create(run=run, project=project, created_at=timezone.now(), transcript=transcript,
                                    events=events)


def redact(world, memory) -> None:
    writer = f.person_writer(world.admin)
    memory_delete(writer=writer, store=world.project_store, memory_id=memory.public_id, reason="a person's name")
    memory_redact_all_versions(writer=writer, store=world.project_store, memory_id=memory.public_id)


def test_a_partial_quote_of_any_version_is_redacted_and_no_longer_found(world):
    store = world.project_store
    memory = f.make_memory(store, "/conventions/refund-approvals.md", f"# Refunds\n\n{FIRST}.\n\nSeen on ACME-3.\n")
    memory_update(writer=f.person_writer(world.admin), store=store, memory_id=memory.public_id,
                  content=f"# Refunds\n\n{SECOND}.\n")
    first_words = " ".join(FIRST.split()[:7])  # "Marguerite Okonkwo-Baptiste approves every refund over 500"
    quoted_first = record(world, f"I read the note: {first_words}... so I asked.\n",
                          events=[{"tool": "read", "out": f"> {' '.join(SECOND.split()[:6])}"}])
    unrelated = record(world, "The refund job over the Lyon shop data ran for 500 seconds.\n")
    assert record_search("Marguerite", project_ids=None).hits

    redact(world, memory)

    quoted_first.refresh_from_db()
    unrelated.refresh_from_db()
    assert "Okonkwo" not in quoted_first.transcript and "Okonkwo" not in str(quoted_first.events)
    assert quoted_first.transcript == f"I read the note: {REDACTED_QUOTE}... so I asked.\n"
    assert quoted_first.events == [{"tool": "read", "out": f"> {REDACTED_QUOTE}"}]
    assert unrelated.transcript == "The refund job over the Lyon shop data ran for 500 seconds.\n"
    assert record_search("Marguerite", project_ids=None).hits == []
    assert record_search("Okonkwo", project_ids=None).hits == []


def test_runs_shorter_than_a_passage_and_stock_phrases_stay():
    redacted = redacted_texts(["At the end of the day the loader retries three times before it pages."])
    five_words = "the loader retries three times"
    assert len(five_words.split()) == PASSAGE_WORDS - 1
    assert redacted.replace(f"Noted: {five_words}, then gave up.") == f"Noted: {five_words}, then gave up."
    assert redacted.replace("At the end of the sprint we merged.") == "At the end of the sprint we merged."
    # Six words in a row, whatever the case and the punctuation between them, are a passage.
    assert redacted.replace("log: The loader, retries three times before; ok") == f"log: {REDACTED_QUOTE}; ok"


def test_only_records_of_runs_that_could_read_the_memory_are_scrubbed(world):
    memory = f.make_memory(world.project_store, "/conventions/refund-approvals.md", f"# Refunds\n\n{FIRST}.\n")
    quoted = " ".join(FIRST.split()[2:9])
    inside = record(world, f"Quoted: {quoted}.\n")
    elsewhere = record(world, f"Quoted: {quoted}.\n", project=world.other_project)

    redact(world, memory)

    inside.refresh_from_db()
    elsewhere.refresh_from_db()
    assert inside.transcript == f"Quoted: {REDACTED_QUOTE}.\n"
    assert elsewhere.transcript == f"Quoted: {quoted}.\n"  # another project's run never read this store


def test_a_quote_of_only_common_words_is_redacted_too(world):
    # The record index drops English stop words, so it cannot be what picks the records to scrub:
    # a line made only of them must still leave every record that quoted it.
    store = world.project_store
    line = "It was all that they had and it is what it is"
    memory = f.make_memory(store, "/issues/motto.md", f"# Motto\n\n{line}\n")
    quoted = record(world, f"The note said: {line}\n")

    redact(world, memory)

    quoted.refresh_from_db()
    assert line not in quoted.transcript
    assert REDACTED_QUOTE in quoted.transcript
