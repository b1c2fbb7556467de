"""URLs: the admin, the agent API under /api/, the console under /console/ (its review pages too), the Jira webhook."""

from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from .api_pages import api_docs, api_index

urlpatterns = [
    path("", RedirectView.as_view(url="/console/", permanent=False)),
    path("admin/", admin.site.urls),
    path("api/", api_index, name="api-index"),
    path("api/docs/", api_docs, name="api-docs"),
    path("api/", include("stores.api.urls")),
    path("api/", include("runs.api.urls")),
    path("api/", include("stores.api.people_urls")),
    path("console/records/", include("runs.console.urls")),
    path("console/", include("stores.console.urls")),
    path("console/", include("reviews.console.urls")),
    path("jira/", include("jira_link.urls")),
]

# Under /api/ an unknown route or a crash answers in the API's error envelope, as the SDK expects.
handler404 = "stores.api.errors.page_not_found"
handler500 = "stores.api.errors.server_error"
