import pytest

from schedule import outbox
from tests.schedule.records import EagerTasks


@pytest.fixture
def eager_tasks():
    """Celery tasks run in process for this test (as they do without REDIS_URL)."""
    with EagerTasks():
        yield


@pytest.fixture(autouse=True)
def _fresh_breaker(monkeypatch):
    # The outbox remembers a recent broker failure per process; each test starts without one.
    monkeypatch.setattr(outbox, "_broker_down_until", 0.0)
