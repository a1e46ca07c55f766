"""The forms of the notifications: the channels per kind, a browser's push subscription."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from notifications.endpoints import EndpointRefused, endpoint_check
from notifications.models import Channel, Kind


def field_name(kind: str, channel: str) -> str:
    return f"{kind}__{channel}"


class PreferencesForm(forms.Form):
    """One box per kind and channel (the push column only where the site offers push)."""

    def __init__(self, *args: Any, channels: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.channels = channels
        for kind in Kind:
            for channel in channels:
                self.fields[field_name(kind.value, channel)] = forms.BooleanField(
                    required=False, label=f"{kind.label}: {Channel(channel).label}",
                )

    def rows(self) -> list[tuple[str, list[forms.BoundField]]]:
        """The table's rows: each kind's label and its boxes, in the order of the channels."""
        return [
            (str(kind.label), [self[field_name(kind.value, channel)] for channel in self.channels])
            for kind in Kind
        ]

    def chosen(self) -> dict[str, set[str]]:
        return {
            kind.value: {channel for channel in self.channels
                         if self.cleaned_data.get(field_name(kind.value, channel))}
            for kind in Kind
        }


def _b64url_bytes(value: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return None


class PushSubscriptionForm(forms.Form):
    """What a browser's `PushSubscription.toJSON()` gives: its endpoint and keys (RFC 8291)."""

    endpoint = forms.URLField(max_length=1000, assume_scheme="https")
    p256dh = forms.CharField(max_length=120)
    auth = forms.CharField(max_length=40)

    def clean_endpoint(self) -> str:
        endpoint: str = self.cleaned_data["endpoint"]
        # Only a push service's public host: anything else would let a page make this site
        # post to an address of its choosing (`notifications.endpoints`).
        try:
            endpoint_check(endpoint)
        except EndpointRefused as refused:
            raise forms.ValidationError(refused.message) from None
        return endpoint

    def clean_p256dh(self) -> str:
        value: str = self.cleaned_data["p256dh"]
        raw = _b64url_bytes(value)
        if raw is None or len(raw) != 65 or raw[0] != 4:
            raise forms.ValidationError(_("This is not a browser's push key."))
        return value

    def clean_auth(self) -> str:
        value: str = self.cleaned_data["auth"]
        raw = _b64url_bytes(value)
        if raw is None or len(raw) != 16:
            raise forms.ValidationError(_("This is not a browser's push secret."))
        return value
