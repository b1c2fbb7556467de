from django.apps import AppConfig


class RunsConfig(AppConfig):
    name = "runs"
    verbose_name = "Runs"

    def ready(self) -> None:
        from stores.services import redaction_hooks

        from .services import run_records_scrub_memory

        # Redacting a memory also scrubs its quotes from run records (they hold copies of its text).
        if run_records_scrub_memory not in redaction_hooks.HOOKS:
            redaction_hooks.register(run_records_scrub_memory)
