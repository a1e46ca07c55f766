"""The puzzle pages, mounted at ``/puzzles/`` (``yourtrumps_site.urls``)."""

from django.urls import path

from games.puzzles import views

app_name = "puzzles"

urlpatterns = [
    path("", views.next_puzzle, name="next"),
    path("daily/", views.daily, name="daily"),
    path("streak/", views.streak, name="streak"),
    path("<id:puzzle_id>/", views.show, name="show"),
    path("<id:puzzle_id>/move", views.move, name="move"),
    path("<id:puzzle_id>/solution", views.solution, name="solution"),
]
