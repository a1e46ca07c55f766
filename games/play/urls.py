from django.urls import path

from games.play import views

app_name = "games"

urlpatterns = [
    path("play/ai/", views.play_ai, name="play_ai"),
    path("game/<id:match_id>/", views.match_page, name="match"),
    path("rules/", views.rules, name="rules"),
    path("watch/", views.watch, name="watch"),
    path("tv/", views.tv, name="tv"),
]
