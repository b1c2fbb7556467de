from django.apps import AppConfig


class StoresConfig(AppConfig):
    name = "stores"
    verbose_name = "Memory stores"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (copies version columns; makes the practice store after migrate)
        from .console import redaction

        # Redaction also scrubs the copies the console side holds (cache, refusals, version reasons).
        redaction.register_hooks()
