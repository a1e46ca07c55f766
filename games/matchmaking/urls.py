from django.urls import path

from games.matchmaking import views

app_name = "matchmaking"

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("lobby/pool/", views.pool_join, name="pool_join"),
    path("challenge/new/", views.challenge_new, name="challenge_new"),
    path("people/<username:username>/challenge/", views.friend_challenge,
         name="friend_challenge"),
    path("challenge/<token:token>/", views.challenge_detail, name="challenge"),
    path("challenge/<token:token>/accept/", views.challenge_accept, name="challenge_accept"),
    path("challenge/<token:token>/decline/", views.challenge_decline, name="challenge_decline"),
    path("table/<token:token>/", views.table_detail, name="table"),
    path("table/<token:token>/join/", views.table_join, name="table_join"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
]
