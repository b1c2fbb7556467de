"""The detectors meet their targets on the labelled sets (tests/detection_data/labelled_sets.py)."""

from __future__ import annotations

import pytest

from bench.detection import TARGETS, measure, meets_targets


@pytest.fixture(scope="module")
def rates():
    return measure()


@pytest.mark.parametrize("name", list(TARGETS))
def test_detection_rate_meets_its_target(rates, name):
    rate = rates[name]
    assert meets_targets(rates)[name], f"{name}: {rate.percent:.2f}% (target {TARGETS[name]}%); wrong: {rate.wrong[:5]}"


def test_the_sets_are_as_large_as_promised(rates):
    assert rates["secrets caught"].total >= 200
    assert rates["instructions caught"].total >= 150
    assert rates["legitimate lessons refused"].total >= 300
    assert rates["client detail caught"].total >= 300
