from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.management.base import BaseCommand, CommandError

from yourtrumps_site.consumers import MAX_ANNOUNCEMENT_LENGTH, SITE_GROUP


class Command(BaseCommand):
    help = "Show a message on every open page of the site (for example before a restart)."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("text")

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        text = options["text"].strip()
        if not text or len(text) > MAX_ANNOUNCEMENT_LENGTH:
            raise CommandError(f"the text must be 1 to {MAX_ANNOUNCEMENT_LENGTH} characters")
        async_to_sync(get_channel_layer().group_send)(
            SITE_GROUP, {"type": "site.announcement", "text": text}
        )
        self.stdout.write("announced")
