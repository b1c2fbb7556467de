"""Each store's review schedule (off by default, edited in the admin) and the beat entry that
reviews the stores whose schedule is on and due."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from celery import current_app
from django.urls import reverse
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from reviews.models import Review, ReviewSchedule, ReviewTrigger
from reviews.services.schedules import due_schedules, schedule_of, schedule_set
from reviews.tasks import review_due_stores_task
from stores.errors import InvalidRequest
from stores.models import Store
from tests import factories as f

pytestmark = pytest.mark.django_db


def test_the_migration_makes_the_beat_entry_and_its_task_is_registered():
    row = PeriodicTask.objects.select_related("crontab").get(name="Store reviews")
    assert row.task == "reviews.review_due_stores" and row.enabled and row.description
    assert (row.crontab.minute, row.crontab.hour, str(row.crontab.timezone)) == ("20", "*", "UTC")
    importlib.import_module("reviews.tasks")
    assert {"reviews.review_due_stores", "reviews.review_store"} <= set(current_app.tasks)


def test_every_store_is_off_by_default(world):
    assert Store.objects.count() >= 5
    for store in Store.objects.all():
        schedule = schedule_of(store)
        assert schedule.pk is None and not schedule.enabled
    assert due_schedules() == []
    assert review_due_stores_task() == {"reviewed": [], "review_ids": []}
    assert Review.objects.count() == 0


def test_the_beat_task_reviews_only_enabled_and_due_stores(world):
    f.make_memory(world.project_store, "/conventions/a.md", "A note about staging models and their names.\n")
    on = schedule_set(store=world.project_store, enabled=True, every_hours=24)
    schedule_set(store=world.practice, enabled=False)
    toolset_store = Store.objects.get(toolset=world.toolset)
    recent = schedule_set(store=toolset_store, enabled=True, every_hours=24)
    ReviewSchedule.objects.filter(pk=recent.pk).update(last_started_at=timezone.now() - timedelta(hours=2))

    result = review_due_stores_task()
    assert result["reviewed"] == [world.project_store.public_id]
    review = Review.objects.get()
    assert review.store == world.project_store and review.trigger == ReviewTrigger.SCHEDULE
    assert review.memory_count == 1 and review.started_by is None
    on.refresh_from_db()
    assert on.last_started_at is not None

    # Within its hours it is not due again; once they pass, it is.
    assert review_due_stores_task()["reviewed"] == []
    ReviewSchedule.objects.filter(pk=on.pk).update(last_started_at=timezone.now() - timedelta(hours=25))
    assert review_due_stores_task()["reviewed"] == [world.project_store.public_id]
    assert Review.objects.filter(trigger=ReviewTrigger.SCHEDULE).count() == 2


def test_an_archived_store_is_not_reviewed_by_its_schedule(world):
    schedule_set(store=world.project_store, enabled=True)
    Store.objects.filter(pk=world.project_store.pk).update(archived_at=timezone.now())
    assert review_due_stores_task()["reviewed"] == []


def test_schedule_set_refuses_a_bad_interval(world):
    with pytest.raises(InvalidRequest):
        schedule_set(store=world.project_store, enabled=True, every_hours=0)


def test_the_admin_edits_a_schedule_and_shows_reviews_read_only(client, world):
    client.force_login(world.admin)
    response = client.post(
        reverse("admin:reviews_reviewschedule_add"),
        {"store": world.project_store.pk, "enabled": "on", "every_hours": 12},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    schedule = ReviewSchedule.objects.get(store=world.project_store)
    assert schedule.enabled and schedule.every_hours == 12
    page = client.get(reverse("admin:reviews_reviewschedule_change", args=[schedule.pk]))
    assert page.status_code == 200
    assert client.get(reverse("admin:reviews_reviewschedule_changelist")).status_code == 200

    review_due_stores_task()
    review = Review.objects.get()
    assert client.get(reverse("admin:reviews_review_changelist")).status_code == 200
    page = client.get(reverse("admin:reviews_review_change", args=[review.pk]))
    assert page.status_code == 200 and review.public_id in page.content.decode()
    assert client.get(reverse("admin:reviews_review_add")).status_code == 403
    assert client.get(reverse("admin:reviews_reviewproposal_add")).status_code == 403
