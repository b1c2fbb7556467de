from django.apps import AppConfig


class StoresConfig(AppConfig):
    name = "stores"
    verbose_name = "Memory stores"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (copies version columns; makes the practice store after migrate)
