"""Run routes and the people's store lists, under /api/v1/, without trailing slashes."""

from django.urls import path

from . import views, views_people

urlpatterns = [
    path("v1/runs", views.RunStartView.as_view()),
    path("v1/runs/<str:run_id>", views.RunDetailView.as_view()),
    path("v1/runs/<str:run_id>/end", views.RunEndView.as_view()),
    path("v1/runs/<str:run_id>/lesson", views.RunLessonView.as_view()),
    path("v1/runs/<str:run_id>/record", views.RunRecordView.as_view()),
    path("v1/runs/<str:run_id>/snapshot", views.RunSnapshotView.as_view()),
    path("v1/runs/<str:run_id>/changes", views.RunChangesView.as_view()),
    path("v1/memory_stores/<str:store_id>/set_asides", views_people.SetAsideListView.as_view()),
    path("v1/memory_stores/<str:store_id>/refusals", views_people.RefusalListView.as_view()),
    path("v1/run_records", views_people.RunRecordSearchView.as_view()),
]
