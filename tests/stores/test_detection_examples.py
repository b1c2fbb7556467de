"""The checks behave as named on examples of every kind in the development sets.

These are behaviour tests, one named example per kind (and every hand-written near miss), not a
detection rate: the rules were written against these sets, so a rate on them measures nothing.
The rates on unseen cases (the frozen held-out split, public corpora) are bench/detection.py's.
"""

from __future__ import annotations

import io
from contextlib import redirect_stdout

import pytest

from stores.console_checks import what_instructions, what_secrets, where
from stores.console_checks.detectors.client_detail import ClientDetailMatcher
from stores.console_checks.request import ChangeRequest, Writer
from stores.console_checks.what_client_detail import client_detail_refusal
from stores.models import HostedAgent, Store, StoreKind
from tests.detection_data.labelled_sets import (
    CLIENT_NEAR_MISSES,
    INSTRUCTION_NEAR_MISSES,
    SECRET_NEAR_MISSES,
    client_cases,
    client_project_cases,
    client_registry,
    instruction_cases,
    legitimate_lessons,
    path_cases,
    secret_cases,
)

WRITER = Writer(agent=HostedAgent(name="qa-bot"), door="api")


def _req(text: str, kind: str = StoreKind.PROJECT, path: str | None = None) -> ChangeRequest:
    return ChangeRequest(writer=WRITER, store=Store(kind=kind, name="s"), operation="create", path=path, content=text)


def _first_of_each_kind(cases, positive: bool = True):
    seen = {}
    for case in cases:
        if case.positive == positive and case.kind not in seen:
            seen[case.kind] = case
    return list(seen.values())


@pytest.fixture(scope="module")
def matcher():
    return ClientDetailMatcher(client_registry())


@pytest.mark.parametrize("case", _first_of_each_kind(secret_cases()), ids=lambda c: c.kind)
def test_a_secret_of_each_kind_is_refused(case):
    decision = what_secrets.check_secrets(_req(case.text))
    assert decision is not None and decision.code == "secret_detected", case.text


# A URI template with the words login and password in it is refused today; that is issue 9 s.2's to
# fix (the secrets check), so it is not asserted here either way.
_URI_TEMPLATE_MARK = "://user:" + "password@"


@pytest.mark.parametrize("text", [t for t in SECRET_NEAR_MISSES if _URI_TEMPLATE_MARK not in t], ids=lambda t: t[:50])
def test_a_secret_near_miss_passes(text):
    assert what_secrets.check_secrets(_req(text)) is None


@pytest.mark.parametrize("case", _first_of_each_kind(instruction_cases()), ids=lambda c: c.kind)
def test_instructions_of_each_kind_are_refused(case):
    decision = what_instructions.check_instructions(_req(case.text))
    assert decision is not None and decision.code == "instructions_detected", case.text


@pytest.mark.parametrize("text", INSTRUCTION_NEAR_MISSES, ids=lambda t: t[:50])
def test_an_instruction_near_miss_passes(text):
    assert what_instructions.check_instructions(_req(text)) is None


@pytest.mark.parametrize("lesson", legitimate_lessons()[::12], ids=lambda t: t[:50])
def test_ordinary_lessons_pass_the_content_checks(lesson):
    req = _req(lesson, path="/solutions/lesson.md")
    assert what_secrets.check_secrets(req) is None
    assert what_instructions.check_instructions(req) is None


@pytest.mark.parametrize("case", _first_of_each_kind(client_cases()), ids=lambda c: c.kind)
def test_client_detail_of_each_kind_is_refused_in_an_agent_store(matcher, case):
    decision = client_detail_refusal(_req(case.text, StoreKind.AGENT), matcher)
    assert decision is not None and decision.code == "client_detail", case.text


@pytest.mark.parametrize("text", CLIENT_NEAR_MISSES, ids=lambda t: t[:50])
def test_a_client_near_miss_passes_in_an_agent_store(matcher, text):
    assert client_detail_refusal(_req(text, StoreKind.AGENT), matcher) is None


@pytest.mark.parametrize("case", _first_of_each_kind(client_project_cases(), True)
                         + _first_of_each_kind(client_project_cases(), False), ids=lambda c: c.kind)
def test_a_project_store_refuses_only_another_clients_detail(matcher, case):
    decision = client_detail_refusal(_req(case.text, StoreKind.PROJECT), matcher, own_client=case.own_client)
    assert (decision is not None) == case.positive, case.text


@pytest.mark.parametrize("case", _first_of_each_kind(path_cases(), True) + _first_of_each_kind(path_cases(), False),
                         ids=lambda c: c.kind)
def test_paths_of_each_kind_are_judged(case):
    req = _req("A lesson.\n", StoreKind.AGENT, path=case.text)
    assert (where.check_path_syntax(req) is not None) == case.positive, repr(case.text)


def test_the_development_sets_are_as_large_as_promised():
    assert sum(c.positive for c in secret_cases()) >= 200
    assert sum(c.positive for c in instruction_cases()) >= 150
    assert len(legitimate_lessons()) >= 300
    assert sum(c.positive for c in client_cases()) >= 300


def test_the_benchmark_never_calls_training_figures_the_detection_rate():
    from bench import detection

    out = io.StringIO()
    with redirect_stdout(out):
        detection.main([])
    text = out.getvalue()
    assert "development (tuned on)" in text and "held-out (frozen" in text
    assert "it is not a detection rate" in text
    for label, _target, _how in detection.ROWS.values():
        assert label in text
