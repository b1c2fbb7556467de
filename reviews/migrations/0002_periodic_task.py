"""The beat entry that starts scheduled reviews, as a django-celery-beat row (change it in the admin
under Periodic tasks). Which stores it reviews, and how often, is each store's review schedule
(off by default; the admin under Reviews)."""

import json

from django.db import migrations
from django.utils import timezone

NAME = "Store reviews"
TASK = "reviews.review_due_stores"


def create_periodic_task(apps, schema_editor):
    CrontabSchedule = apps.get_model("django_celery_beat", "CrontabSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    PeriodicTasks = apps.get_model("django_celery_beat", "PeriodicTasks")
    # Every hour at twenty past (UTC), apart from the other hourly jobs: a store whose schedule is on
    # is reviewed within the hour after it falls due.
    crontab, _ = CrontabSchedule.objects.get_or_create(
        minute="20", hour="*", day_of_week="*", day_of_month="*", month_of_year="*", timezone="UTC"
    )
    # get_or_create: a row someone already made (or changed in the admin) is left as it is.
    PeriodicTask.objects.get_or_create(
        name=NAME,
        defaults={
            "task": TASK,
            "description": "Review the stores whose review schedule is on and due (each store's schedule is off "
            "until a person turns it on).",
            "kwargs": json.dumps({}),
            "enabled": True,
            "crontab": crontab,
        },
    )
    PeriodicTasks.objects.update_or_create(ident=1, defaults={"last_update": timezone.now()})


def remove_periodic_task(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("reviews", "0001_initial"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(create_periodic_task, remove_periodic_task)]
