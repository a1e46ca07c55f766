from django.urls import path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("notifications/", views.notification_list, name="list"),
    path("notifications/read/", views.read, name="read_all"),
    path("notifications/<int:notification_id>/read/", views.read, name="read"),
    path("notifications/settings/", views.preferences, name="settings"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("notifications/push/subscribe/", views.push_subscribe, name="push_subscribe"),
    path("notifications/push/unsubscribe/", views.push_unsubscribe, name="push_unsubscribe"),
    path(views.SERVICE_WORKER, views.service_worker, name="service_worker"),
]
