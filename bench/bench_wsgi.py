import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.bench_settings")
application = get_wsgi_application()

# As the console's own entry point (memory_console.wsgi) prepares its workers.
from memory_console.serving import prepare_serving_process  # noqa: E402

prepare_serving_process()
