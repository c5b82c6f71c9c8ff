from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import WebhookEvent


class WebhookForm(forms.Form):
    """A new endpoint; the address is the service's to check (webhook_endpoint_create:
    http or https, no loopback or private address), naming the field."""

    url = forms.CharField(
        label=_("Address (URL)"),
        max_length=500,
        widget=forms.URLInput(attrs={"placeholder": "https://example.org/agon-hook"}),
    )
    events = forms.MultipleChoiceField(
        label=_("Events to send"),
        choices=WebhookEvent.choices,
        widget=forms.CheckboxSelectMultiple,
        initial=list(WebhookEvent.values),
    )
    description = forms.CharField(label=_("Description"), max_length=120, required=False)
