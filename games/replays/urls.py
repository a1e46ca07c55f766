"""Replays and histories: included at the site's root (``yourtrumps_site.urls``)."""

from django.urls import path

from games.replays import views

app_name = "replays"

urlpatterns = [
    path("games/", views.history, name="history"),
    path("@/<username:username>/games", views.player_history, name="player_history"),
    path("game/<id:match_id>/replay", views.replay, name="replay"),
    path("game/<id:match_id>/replay.json", views.replay_data, name="replay_data"),
    path("game/<id:match_id>/record", views.record, name="record"),
    path("replay/import", views.record_import_view, name="import"),
]
