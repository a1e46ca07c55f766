from django.urls import path

from games.play.chat import views

app_name = "chat"

urlpatterns = [
    path("report/", views.report, name="report"),
]
