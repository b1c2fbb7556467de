from django.apps import AppConfig


class RunsConfig(AppConfig):
    name = "runs"
    verbose_name = "Runs"

    def ready(self) -> None:
        from stores.services import redaction, version_hooks

        from . import tasks  # noqa: F401  (registers the tasks in every process: their names are not their module's)
        from .services import run_records_scrub_memory, run_version_written

        # A version written with a run's token counts for the run (and may answer its lesson prompt).
        version_hooks.on_version_written(run_version_written)
        # Redacting a memory also scrubs its quotes from run records (they hold copies of its text).
        redaction.register_run_record_scrubber(run_records_scrub_memory)
