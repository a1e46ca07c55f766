from django.urls import path

from games.api import views
from games.api.site import api

urlpatterns = [
    path("api/", views.api_docs, name="api_docs"),
    path("api/openapi.json", views.openapi_json, name="api_openapi"),
    path("bots/", views.bots, name="bots"),
    path("api/", api.urls),
]
