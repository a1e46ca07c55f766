"""A stand-in for a Web Push service on 127.0.0.1: it checks each message's VAPID signature
(RFC 8292: a JWT signed ES256 with the site's key) and decrypts its payload (aes128gcm,
RFC 8188 and 8291) with the private key of the browser the test plays."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _hmac(key: bytes, data: bytes) -> bytes:
    return hmac.new(key, data, hashlib.sha256).digest()


@dataclass
class Browser:
    """The keys a browser makes for one push subscription (RFC 8291's user agent)."""

    private: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def public(self) -> bytes:
        return self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)

    def decrypt(self, body: bytes) -> bytes:
        """The plaintext of one aes128gcm message sent to this browser."""
        salt, record_size, id_length = body[:16], int.from_bytes(body[16:20]), body[20]
        sender = body[21:21 + id_length]
        ciphertext = body[21 + id_length:]
        assert len(ciphertext) <= record_size, "one record"
        shared = self.private.exchange(
            ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender))
        # RFC 8291 section 3.4: the input keying material from the shared secret and auth.
        prk_key = _hmac(self.auth, shared)
        ikm = _hmac(prk_key, b"WebPush: info\x00" + self.public + sender + b"\x01")
        # RFC 8188 section 2.2: the content encryption key and the nonce.
        prk = _hmac(salt, ikm)
        key = _hmac(prk, b"Content-Encoding: aes128gcm\x00\x01")[:16]
        nonce = _hmac(prk, b"Content-Encoding: nonce\x00\x01")[:12]
        padded = AESGCM(key).decrypt(nonce, ciphertext, None)
        unpadded = padded.rstrip(b"\x00")
        assert unpadded.endswith(b"\x02"), "the last record's delimiter"
        return unpadded[:-1]


def vapid_claims(authorization: str, public_key: str) -> dict[str, Any]:
    """The claims of a VAPID authorization (`vapid t=JWT, k=key`), once its signature is
    checked with `public_key` (base64url, the uncompressed point)."""
    match = re.fullmatch(r"vapid t=([\w.-]+),\s*k=([\w-]+)", authorization)
    assert match is not None, authorization
    token, key = match.groups()
    assert key == public_key
    header, payload, signature = token.split(".")
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    verifier = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    verifier.verify(  # raises InvalidSignature
        encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:])),
        f"{header}.{payload}".encode(), ec.ECDSA(hashes.SHA256()),
    )
    claims: dict[str, Any] = json.loads(unb64url(payload))
    return claims


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


class PushService:
    """An HTTP server on a free local port; `answer` maps a path to the status it returns
    (201 otherwise). Started and stopped by the test (`with PushService() as service`)."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.answer: dict[str, int] = {}
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                service.received.append(Received(
                    self.path, {k.lower(): v for k, v in self.headers.items()},
                    self.rfile.read(length)))
                self.send_response(service.answer.get(self.path, 201))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)

    def wait_for(self, count: int, timeout: float = 20) -> list[Received]:
        deadline = time.monotonic() + timeout
        while len(self.received) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.received
