"""What a serving process (a gunicorn or uvicorn worker) does once, after Django is set up."""

from __future__ import annotations

import gc

from stores.console_checks.detectors import instructions, secrets


def prepare_serving_process() -> None:
    """Load the checks' models now, then freeze every object loaded so far out of the garbage collector.

    What is loaded by then lives as long as the process (Django, the apps, the instruction model, the
    secret scanner). The checks allocate enough on each write to bring a full collection round often,
    and a full collection walks every tracked object: frozen (``gc.freeze``), the long-lived ones are
    no longer walked, which takes about a millisecond off a checked write. Loading the models first
    (a scan of a short text each) means they are frozen too; nothing is frozen that is not kept anyway.
    """
    instructions.scan("Warm up: a lesson about the work.")
    secrets.scan("Warm up: a lesson about the work.")
    gc.freeze()
