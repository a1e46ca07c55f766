from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = _("Notifications")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Registered in every process, so that a service can send one by its name
        # (`infra.tasks.task_send`) and `games.play.events` finds its subscribers.
        from notifications import receivers, tasks  # noqa: F401

        receivers.connect_signals()
