from django.urls import path

from games.tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/new/", views.tournament_new, name="new"),
    path("tournament/<token:token>/", views.tournament_detail, name="detail"),
    path("tournament/<token:token>/join/", views.tournament_act, {"action": "join"},
         name="join"),
    path("tournament/<token:token>/pause/", views.tournament_act, {"action": "pause"},
         name="pause"),
    path("tournament/<token:token>/withdraw/", views.tournament_act,
         {"action": "withdraw"}, name="withdraw"),
    path("tournament/<token:token>/ai/", views.tournament_act, {"action": "ai"},
         name="ai_opt_in"),
    path("tournament/game/<id:match_id>/berserk/", views.arena_berserk, name="berserk"),
]
