from django.apps import AppConfig


class ReviewsConfig(AppConfig):
    name = "reviews"
    verbose_name = "Reviews"

    def ready(self) -> None:
        from stores.services import redaction

        from . import tasks  # noqa: F401  (registers the tasks under their names in every process)
        from .services.redaction import proposals_scrub_memory

        # Proposals hold memory text: redacting a memory blanks it in them too.
        redaction.register_scrubber("reviews.ReviewProposal", proposals_scrub_memory)
