"""The console's schedule, as django-celery-beat rows (change them in the admin under Periodic tasks).

Times are UTC. Each entry says in words when it runs and why then.
"""

import json

from django.db import migrations
from django.utils import timezone

# (name, task, schedule, description). A schedule is ("crontab", minute, hour) or ("interval", seconds).
PERIODIC_TASKS = [
    (
        "Jira sync",
        "jira_link.tasks.sync_jira_task",
        # Every ten minutes, around the clock: the webhook carries changes as they happen; this
        # catches anything it missed, so a ticket row is never more than ten minutes behind.
        ("crontab", "*/10", "*"),
        "Refresh Jira projects and open tickets.",
    ),
    (
        "Run-record retention purge",
        "runs.retention_tasks.purge_run_records_task",
        # Every day at 02:30 UTC, a quiet hour: records past their retention go within a day.
        ("crontab", "30", "2"),
        "Delete run records older than their retention (RUN_RECORD_RETENTION_DAYS, or the client's days when fewer).",
    ),
    (
        "Engagement closes",
        "runs.retention_tasks.engagement_closes_task",
        # Every hour at five past: a closing date is acted on in the first hour of that day, and a
        # record a run saved after its project closed goes within the hour.
        ("crontab", "5", "*"),
        "Delete every run record of projects whose engagement-closed date has been reached.",
    ),
    (
        "Lesson prompts close",
        "runs.tasks.lesson_prompts_close_task",
        # Every fifteen minutes: a lesson prompt unanswered after LESSON_PROMPT_TIMEOUT_HOURS is
        # closed, and its run token stops working, within a quarter of an hour of the deadline.
        ("crontab", "*/15", "*"),
        "Close lesson prompts left unanswered past LESSON_PROMPT_TIMEOUT_HOURS.",
    ),
    (
        "Outbox sweep",
        "schedule.tasks.outbox_sweep_task",
        # Every minute: a follow-up task held back by a broker outage goes out within a minute of
        # the broker's return.
        ("interval", 60),
        "Publish the follow-up tasks a broker outage held back.",
    ),
]


def create_periodic_tasks(apps, schema_editor):
    CrontabSchedule = apps.get_model("django_celery_beat", "CrontabSchedule")
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    PeriodicTasks = apps.get_model("django_celery_beat", "PeriodicTasks")
    for name, task, schedule, description in PERIODIC_TASKS:
        when = {"interval": None, "crontab": None}
        if schedule[0] == "crontab":
            when["crontab"], _ = CrontabSchedule.objects.get_or_create(
                minute=schedule[1], hour=schedule[2], day_of_week="*", day_of_month="*",
                month_of_year="*", timezone="UTC",
            )
        else:
            when["interval"], _ = IntervalSchedule.objects.get_or_create(every=schedule[1], period="seconds")
        # get_or_create: a row someone already made (or changed in the admin) is left as it is.
        PeriodicTask.objects.get_or_create(
            name=name,
            defaults={"task": task, "description": description, "kwargs": json.dumps({}), "enabled": True, **when},
        )
    # Tell a running beat that its schedule changed (django-celery-beat reads this row).
    PeriodicTasks.objects.update_or_create(ident=1, defaults={"last_update": timezone.now()})


def remove_periodic_tasks(apps, schema_editor):
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    PeriodicTask.objects.filter(name__in=[name for name, *_ in PERIODIC_TASKS]).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("schedule", "0001_initial"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(create_periodic_tasks, remove_periodic_tasks)]
