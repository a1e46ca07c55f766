from django.urls import path

from games.api import views
from games.api.site import api

urlpatterns = [
    path("api/", views.api_docs, name="api_docs"),
    path("api/", api.urls),
]
