"""Review now and the scheduled reviews through real Celery processes (a private Redis, the test's
PostgreSQL database shared with them)."""

from __future__ import annotations

import pytest
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from reviews.models import Review, ReviewStatus, ReviewTrigger
from reviews.services.review import request_review
from reviews.services.schedules import schedule_set
from stores.models import Store
from tests import factories as f
from tests.schedule.procs import (
    REDIS_SERVER,
    PrivateRedis,
    celery_beat,
    celery_worker,
    child_env,
    shared_database_url,
    use_broker,
    wait_for,
)

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(REDIS_SERVER is None, reason="needs the redis-server program for a private Redis"),
]


def test_review_now_runs_in_a_worker(tmp_path, review_scene):
    with PrivateRedis(tmp_path) as redis, use_broker(redis.url):
        env = child_env(broker_url=redis.url, database_url=shared_database_url())
        with celery_worker(env, tmp_path) as worker:
            review = request_review(store=review_scene.store, started_by=review_scene.world.contact)
            wait_for(
                lambda: Review.objects.get(pk=review.pk).status == ReviewStatus.FINISHED, 60,
                what=lambda: f"the review to finish\n{worker.log()[-2000:]}",
            )
            log = worker.log()
    review.refresh_from_db()
    assert review.proposal_count == 4 and review.trigger == ReviewTrigger.PERSON
    assert "reviews.review_store" in log and "succeeded" in log


def test_celery_beat_reviews_only_the_stores_whose_schedule_is_on(tmp_path, world):
    f.make_memory(world.project_store, "/conventions/a.md", "A note about staging models and their names.\n")
    schedule_set(store=world.project_store, enabled=True, every_hours=24)
    schedule_set(store=Store.objects.get(toolset=world.toolset), enabled=False)
    # The other rows stay off; the store-review entry runs every second instead of hourly.
    PeriodicTask.objects.update(enabled=False)
    every_second, _ = IntervalSchedule.objects.get_or_create(every=1, period=IntervalSchedule.SECONDS)
    PeriodicTask.objects.update_or_create(
        name="Store reviews",
        defaults={"task": "reviews.review_due_stores", "interval": every_second, "crontab": None, "enabled": True},
    )

    with PrivateRedis(tmp_path) as redis:
        env = child_env(broker_url=redis.url, database_url=shared_database_url())
        with celery_worker(env, tmp_path) as worker, celery_beat(env, tmp_path) as beat:
            wait_for(
                lambda: Review.objects.filter(status=ReviewStatus.FINISHED).exists(), 120,
                what=lambda: f"a scheduled review\n--- beat\n{beat.log()[-1500:]}\n--- worker\n{worker.log()[-1500:]}",
            )
            wait_for(lambda: worker.log().count("reviews.review_due_stores") >= 4, 30, what="a few more beats")
    reviews = list(Review.objects.all())
    # One review for the one store switched on (its next is a day away), however often the beat ran.
    assert [(r.store_id, r.trigger) for r in reviews] == [(world.project_store.pk, ReviewTrigger.SCHEDULE)]
    assert reviews[0].memory_count == 1
