from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from accounts import views as accounts_views
from yourtrumps_site import i18n, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    # Pages name the SVG icon; what asks for the old address without reading a page (feed
    # readers, bookmarks) is sent to it too, rather than to a 404.
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True),
         name="favicon"),
    path("i18n/setlang/", i18n.set_language, name="set_language"),
    path("accounts/", include("accounts.urls")),
    path("@/<username:username>", accounts_views.profile, name="profile"),
    path("", include("games.replays.urls")),
    path("admin/", admin.site.urls),
    path("", include("games.play.urls")),
    path("", include("games.matchmaking.urls")),
    path("", include("notifications.urls")),
]
