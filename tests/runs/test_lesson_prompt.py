"""The end-of-run lesson prompt: who is asked (table-driven), asked once, answered once, closed on time."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from runs.models import Run
from runs.tasks import lesson_prompts_close_task

from .conftest import RUNS, STORES, error_code

pytestmark = pytest.mark.django_db


def write_note(api, run: dict, world, path: str = "/solutions/merge-key.md") -> dict:
    response = api.as_token(run["token"]).post(
        f"{STORES}/{world.project_store.public_id}/memories",
        {"path": path, "content": f"Fact: the merge needs a unique key. Evidence: duplicates. {run['ticket_key']}\n"},
        format="json",
    )
    assert response.status_code == 200, response.content
    return response.json()


def end(api, token: str, run: dict, **signals):
    return api.as_token(token).post(f"{RUNS}/{run['id']}/end", signals, format="json")


CASES = [
    # label, signals, saved a version, asked
    ("routine run", {}, False, False),
    ("routine run that saved", {}, True, False),
    ("one attempt said outright", {"attempts": 1}, False, False),
    ("qa failure", {"qa_failed": True}, False, True),
    ("qa failure, saved", {"qa_failed": True}, True, False),
    ("needed a ruling", {"needed_ruling": True}, False, True),
    ("needed a ruling, saved", {"needed_ruling": True}, True, False),
    ("worked past an error", {"worked_past_error": True}, False, True),
    ("worked past an error, saved", {"worked_past_error": True}, True, False),
    ("two attempts", {"attempts": 2}, False, True),
    ("two attempts, saved", {"attempts": 2}, True, False),
    ("every signal", {"qa_failed": True, "needed_ruling": True, "worked_past_error": True, "attempts": 3}, False,
     True),
    ("every signal, saved", {"qa_failed": True, "needed_ruling": True, "worked_past_error": True, "attempts": 3},
     True, False),
]


@pytest.mark.parametrize(("label", "signals", "saved", "asked"), CASES, ids=[c[0] for c in CASES])
def test_who_is_asked_and_only_once(api, world, run_factory, label, signals, saved, asked):
    run = run_factory()
    if saved:
        write_note(api, run, world)
    response = end(api, run["token"], run, **signals)
    assert response.status_code == 200
    body = response.json()
    assert (body["lesson_prompt"] is not None) is asked, label
    for name in ("qa_failed", "needed_ruling", "worked_past_error"):
        assert body["signals"][name] is signals.get(name, False)
    assert body["signals"]["attempts"] == signals.get("attempts", 1)
    first = Run.objects.get(public_id=run["id"])
    assert (first.lesson_prompted_at is not None) is asked

    # Ending again changes nothing and asks nobody a second time.
    again = end(api, world.agent_token, run, qa_failed=True, attempts=5).json()
    assert again["lesson_prompt"] == body["lesson_prompt"] and again["signals"] == body["signals"]
    assert Run.objects.get(public_id=run["id"]).lesson_prompted_at == first.lesson_prompted_at

    # The run token keeps working only while a prompt is open.
    token_status = api.as_token(run["token"]).get(f"{RUNS}/{run['id']}").status_code
    assert token_status == (200 if asked else 401)


def test_the_prompt_names_the_signals_and_how_to_answer(api, world, run_factory):
    run = run_factory()
    prompt = end(api, run["token"], run, qa_failed=True, attempts=2).json()["lesson_prompt"]
    assert "hit a QA failure and took 2 attempts" in prompt
    assert "the fact, the evidence and the ticket key" in prompt
    assert "--nothing-to-record" in prompt and f"/api/v1/runs/{run['id']}/lesson" in prompt


def test_nothing_to_record_answers_once(api, world, run_factory):
    run = run_factory()
    end(api, run["token"], run, needed_ruling=True)
    answer = api.as_token(run["token"]).post(
        f"{RUNS}/{run['id']}/lesson", {"nothing_to_record": True, "why": "The ruling is already a standing decision."},
        format="json",
    )
    assert answer.status_code == 200
    lesson = answer.json()["lesson_answer"]
    assert lesson["nothing_to_record"] is True and lesson["memory_version_id"] is None
    assert lesson["why"] == "The ruling is already a standing decision." and lesson["at"]
    # The run token stopped with the answer; the agent's own token gets the refusal.
    assert api.as_token(run["token"]).get(f"{RUNS}/{run['id']}").status_code == 401
    second = api.as_token(world.agent_token).post(
        f"{RUNS}/{run['id']}/lesson", {"nothing_to_record": True, "why": "again"}, format="json"
    )
    assert second.status_code == 409 and error_code(second) == "already_answered"
    body = api.get(f"{RUNS}/{run['id']}").json()
    assert body["lesson_answer"]["why"] == "The ruling is already a standing decision."


def test_a_lesson_written_with_the_run_token_is_the_answer(api, world, run_factory):
    run = run_factory()
    end(api, run["token"], run, worked_past_error=True)
    note = write_note(api, run, world, "/issues/timeouts.md")
    body = api.as_token(world.agent_token).get(f"{RUNS}/{run['id']}").json()
    assert body["lesson_answer"]["nothing_to_record"] is False
    assert body["lesson_answer"]["memory_version_id"] == note["memory_version_id"]
    assert api.as_token(run["token"]).get(f"{RUNS}/{run['id']}").status_code == 401
    second = api.as_token(world.agent_token).post(
        f"{RUNS}/{run['id']}/lesson", {"nothing_to_record": True, "why": "x"}, format="json"
    )
    assert second.status_code == 409 and error_code(second) == "already_answered"


def test_a_routine_run_has_no_prompt_to_answer(api, world, run_factory):
    run = run_factory()
    end(api, run["token"], run)
    response = api.as_token(world.agent_token).post(
        f"{RUNS}/{run['id']}/lesson", {"nothing_to_record": True, "why": "x"}, format="json"
    )
    assert response.status_code == 409 and error_code(response) == "no_lesson_prompt"


@pytest.mark.parametrize("body", [{"nothing_to_record": False, "why": "x"}, {"nothing_to_record": True},
                                  {"nothing_to_record": True, "why": "  "}, {"why": "x"}])
def test_an_answer_must_say_nothing_to_record_and_why(api, world, run_factory, body):
    run = run_factory()
    end(api, run["token"], run, qa_failed=True)
    response = api.as_token(run["token"]).post(f"{RUNS}/{run['id']}/lesson", body, format="json")
    assert response.status_code == 400
    assert Run.objects.get(public_id=run["id"]).lesson_answered_at is None


def test_the_why_keeps_no_secret(api, world, run_factory):
    from .conftest import aws_key

    run = run_factory()
    end(api, run["token"], run, qa_failed=True)
    api.as_token(run["token"]).post(
        f"{RUNS}/{run['id']}/lesson", {"nothing_to_record": True, "why": f"Only a key {aws_key()} rotation."},
        format="json",
    )
    why = Run.objects.get(public_id=run["id"]).lesson_why
    assert aws_key() not in why and "[REDACTED:AWS Access Key]" in why


def test_prompts_left_unanswered_are_closed_after_the_timeout(api, world, run_factory, settings):
    settings.LESSON_PROMPT_TIMEOUT_HOURS = 24
    old, fresh, routine = run_factory("ACME-1"), run_factory("ACME-2"), run_factory("ACME-3")
    end(api, old["token"], old, qa_failed=True)
    end(api, fresh["token"], fresh, qa_failed=True)
    end(api, routine["token"], routine)
    Run.objects.filter(public_id=old["id"]).update(
        lesson_prompted_at=timezone.now() - datetime.timedelta(hours=25)
    )
    assert lesson_prompts_close_task.apply().get() == {"closed": 1}
    assert lesson_prompts_close_task() == {"closed": 0}  # a second delivery closes nothing
    closed = Run.objects.get(public_id=old["id"])
    assert closed.lesson_closed_unanswered_at is not None and closed.lesson_answered_at is None
    assert Run.objects.get(public_id=fresh["id"]).lesson_closed_unanswered_at is None
    assert api.as_token(old["token"]).get(f"{RUNS}/{old['id']}").status_code == 401
    late = api.as_token(world.agent_token).post(
        f"{RUNS}/{old['id']}/lesson", {"nothing_to_record": True, "why": "late"}, format="json"
    )
    assert late.status_code == 409 and error_code(late) == "lesson_prompt_closed"
    body = api.get(f"{RUNS}/{old['id']}").json()
    assert body["lesson_answer"] is None and body["lesson_closed_unanswered_at"]
