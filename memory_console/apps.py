from django.apps import AppConfig


class MemoryConsoleConfig(AppConfig):
    name = "memory_console"
    verbose_name = "Memory Console"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the system checks)
