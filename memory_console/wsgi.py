"""WSGI entry point (gunicorn memory_console.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_console.settings")
application = get_wsgi_application()

from memory_console.serving import prepare_serving_process  # noqa: E402 (needs Django set up)

prepare_serving_process()
