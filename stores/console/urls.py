"""The console's pages under /console/. Every action is a POST with CSRF protection."""

from django.urls import path

from . import editing, views

app_name = "console"

urlpatterns = [
    path("login/", views.ConsoleLoginView.as_view(), name="login"),
    path("logout/", views.ConsoleLogoutView.as_view(), name="logout"),
    path("", views.memory_home, name="home"),
    path("stores/<str:store_id>/", views.store_detail, name="store"),
    path("stores/<str:store_id>/memories/<str:memory_id>/", views.memory_detail, name="memory"),
    path(
        "stores/<str:store_id>/memories/<str:memory_id>/versions/<str:version_id>/",
        views.version_detail,
        name="version",
    ),
    path("stores/<str:store_id>/memories/<str:memory_id>/delete/", views.memory_delete_view, name="delete"),
    path("stores/<str:store_id>/deleted/", views.deleted_list, name="deleted"),
    path("stores/<str:store_id>/deleted/<str:memory_id>/restore/", views.memory_restore_view, name="restore"),
    path("stores/<str:store_id>/deleted/<str:memory_id>/redact/", views.memory_redact_view, name="redact"),
    path("set-asides/<str:set_aside_id>/", views.set_aside_detail, name="set_aside"),
    path("set-asides/<str:set_aside_id>/use/", views.set_aside_use_view, name="set_aside_use"),
    path("set-asides/<str:set_aside_id>/dismiss/", views.set_aside_dismiss_view, name="set_aside_dismiss"),
    path("stores/<str:store_id>/new/", editing.memory_new_view, name="memory_new"),
    path("stores/<str:store_id>/memories/<str:memory_id>/edit/", editing.memory_edit_view, name="memory_edit"),
    path(
        "stores/<str:store_id>/memories/<str:memory_id>/versions/<str:version_id>/revert/",
        editing.memory_revert_view,
        name="memory_revert",
    ),
    path("set-asides/<str:set_aside_id>/merge/", editing.set_aside_merge_view, name="set_aside_merge"),
]

# Find any note, see what happened, and a run's page (issue 11, sections 4 and 5).
from . import activity_views, search_views  # noqa: E402

urlpatterns += [
    path("search/", search_views.search_view, name="search"),
    path("activity/", activity_views.activity_view, name="activity"),
    path("stores/<str:store_id>/activity/", activity_views.store_activity_view, name="store_activity"),
    path("runs/<str:run_id>/", activity_views.run_detail_view, name="run"),
]

# Promotion to the practice store or a toolset store (issue 12, section 2).
from . import promotion_views  # noqa: E402

urlpatterns += [
    path("stores/<str:store_id>/memories/<str:memory_id>/promote/", promotion_views.promote_view, name="promote"),
    path("promotions/", promotion_views.promotion_list, name="promotions"),
    path("promotions/<str:promotion_id>/", promotion_views.promotion_detail, name="promotion"),
    path("promotions/<str:promotion_id>/approve/", promotion_views.promotion_approve_view, name="promotion_approve"),
    path("promotions/<str:promotion_id>/refuse/", promotion_views.promotion_refuse_view, name="promotion_refuse"),
]
