"""Print a new VAPID key pair for Web Push, as the settings take them."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def vapid_key_pair() -> tuple[str, str]:
    """(public, private): the uncompressed P-256 point and the raw private scalar, base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return _b64url(public), _b64url(private)


class Command(BaseCommand):
    help = "Print a new VAPID key pair (WEBPUSH_VAPID_PUBLIC_KEY, WEBPUSH_VAPID_PRIVATE_KEY)."

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        public, private = vapid_key_pair()
        self.stdout.write(f"WEBPUSH_VAPID_PUBLIC_KEY={public}\nWEBPUSH_VAPID_PRIVATE_KEY={private}\n")
