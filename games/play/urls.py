from django.urls import path

from games.play import correspondence_views, views

app_name = "games"

urlpatterns = [
    path("play/ai/", views.play_ai, name="play_ai"),
    path("game/<id:match_id>/", views.match_page, name="match"),
    path("rules/", views.rules, name="rules"),
    path("watch/", views.watch, name="watch"),
    path("tv/", views.tv, name="tv"),
    path("play/your-turn/", correspondence_views.your_turn, name="your_turn"),
    path("play/next/", correspondence_views.next_waiting, name="next_game"),
    path("play/vacation/", correspondence_views.vacation, name="vacation"),
    path("play/vacation/end/", correspondence_views.vacation_stop, name="vacation_end"),
]
