"""The schedule: Celery beat's periodic tasks (a data migration) and the outbox for follow-up tasks."""
