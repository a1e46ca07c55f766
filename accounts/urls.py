from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import social_views, views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("settings/", views.account_settings, name="settings"),
    path("settings/language/", views.language_change, name="language"),
    path("settings/sound/", views.sound_volume_change, name="sound"),
    path("settings/profile/", social_views.profile_change, name="profile_change"),
    path("people/<username:username>/<slug:action>/", social_views.relation_change,
         name="relation"),
    path("settings/password/", views.PasswordChangeView.as_view(), name="password_change"),
    path("settings/delete/", views.account_delete, name="delete"),
    path("settings/api/", views.api_tokens, name="api_tokens"),
    path("settings/api/<int:token_id>/revoke/", views.api_token_revoke, name="api_token_revoke"),
    path("settings/api/bot-challenges/", views.bot_challenges_change, name="bot_challenges"),
    path("password-reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password-reset/sent/",
        views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password-reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password-reset/done/",
        views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
