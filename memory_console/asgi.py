"""ASGI entry point (uvicorn memory_console.asgi:application).

The Django application, with the run change feed's long-poll held on the event loop
(``runs.api.long_poll.HoldChanges``): a folder waiting for a change holds no thread.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_console.settings")
django_application = get_asgi_application()  # sets Django up before the app's own modules load

from memory_console.serving import prepare_serving_process  # noqa: E402
from runs.api.long_poll import HoldChanges  # noqa: E402

prepare_serving_process()

application = HoldChanges(django_application)
