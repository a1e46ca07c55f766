from django.apps import AppConfig


class SiteConfig(AppConfig):
    name = "yourtrumps_site"

    def ready(self) -> None:
        # Before any URLconf or WebSocket route is built: they name these converters.
        from yourtrumps_site import converters, friends_socket, session_sockets

        converters.register()
        session_sockets.connect_signals()
        friends_socket.connect_signals()
