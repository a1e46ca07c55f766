from django.apps import AppConfig


class SiteConfig(AppConfig):
    name = "yourtrumps_site"

    def ready(self) -> None:
        # Before any URLconf or WebSocket route is built: they name these converters.
        from infra import converters, session_sockets
        from yourtrumps_site import friends_socket

        converters.register()
        session_sockets.connect_signals()
        friends_socket.connect_signals()
