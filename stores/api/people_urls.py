"""The people's routes under /api/v1/, beside the agent API's (no trailing slashes)."""

from django.urls import path

from . import people_views

urlpatterns = [
    path("v1/memory_stores/<str:store_id>/deleted_memories", people_views.DeletedMemoryListView.as_view()),
    path(
        "v1/memory_stores/<str:store_id>/deleted_memories/<str:memory_id>/restore",
        people_views.DeletedMemoryRestoreView.as_view(),
    ),
    path(
        "v1/memory_stores/<str:store_id>/deleted_memories/<str:memory_id>/redact",
        people_views.DeletedMemoryRedactView.as_view(),
    ),
]
