"""Routes under /api/v1/, without trailing slashes (the SDK never sends one)."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from . import schema, views  # noqa: F401  (schema describes the views for /api/schema/)

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(authentication_classes=[], permission_classes=[]), name="api-schema"),
    path("v1/memory_stores", views.StoreListView.as_view()),
    path("v1/memory_stores/<str:store_id>", views.StoreDetailView.as_view()),
    path("v1/memory_stores/<str:store_id>/archive", views.StoreArchiveView.as_view()),
    path("v1/memory_stores/<str:store_id>/memories", views.MemoryListView.as_view()),
    path("v1/memory_stores/<str:store_id>/memories/<str:memory_id>", views.MemoryDetailView.as_view()),
    path("v1/memory_stores/<str:store_id>/memory_versions", views.VersionListView.as_view()),
    path("v1/memory_stores/<str:store_id>/memory_versions/<str:version_id>", views.VersionDetailView.as_view()),
    path(
        "v1/memory_stores/<str:store_id>/memory_versions/<str:version_id>/redact",
        views.VersionRedactView.as_view(),
    ),
]
