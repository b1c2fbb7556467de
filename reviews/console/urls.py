"""The review pages under /console/ (namespace ``reviews``). Every action is a POST with CSRF."""

from django.urls import path

from . import views

app_name = "reviews"

urlpatterns = [
    # GET lists the store's reviews; POST is Review now.
    path("stores/<str:store_id>/reviews/", views.store_reviews_view, name="store_reviews"),
    path("reviews/<str:review_id>/", views.review_detail_view, name="review"),
    path("reviews/<str:review_id>/adopt-all/", views.adopt_all_view, name="adopt_all"),
    path("reviews/<str:review_id>/proposals/<str:proposal_id>/adopt/", views.adopt_view, name="adopt"),
    path("reviews/<str:review_id>/proposals/<str:proposal_id>/dismiss/", views.dismiss_view, name="dismiss"),
]
