from django.contrib import admin
from django.urls import include, path

from accounts import views as accounts_views
from games.profiles import views as profile_views
from yourtrumps_site import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("i18n/setlang/", accounts_views.set_language, name="set_language"),
    path("accounts/", include("accounts.urls")),
    path("@/<username:username>", profile_views.profile, name="profile"),
    path("", include("games.replays.urls")),
    path("admin/", admin.site.urls),
    path("", include("games.play.urls")),
    path("puzzles/", include("games.puzzles.urls")),
    path("", include("games.matchmaking.urls")),
    path("", include("games.tournaments.urls")),
    path("", include("notifications.urls")),
    path("", include("games.api.urls")),
    path("chat/", include("games.play.chat.urls")),
]
