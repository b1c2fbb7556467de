"""The run-record search page, mounted at /console/records/ (memory_console/urls.py)."""

from django.urls import path

from . import views

app_name = "records"

urlpatterns = [
    path("", views.record_search_view, name="record_search"),
]
