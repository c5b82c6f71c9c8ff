"""The three logins (site, admin, API token) refuse a user name longer than any user's
before it reaches authentication: Django's login forms only advertise the user name's
length (they set max_length after the field is built, which adds no validator), so a
longer name went on to the lockout table, whose column holds 255, and failed there
with a 500 on PostgreSQL."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer


def username_max_length() -> int:
    model = get_user_model()
    length: int = model._meta.get_field(model.USERNAME_FIELD).max_length or 150
    return length


TOO_LONG = _("No user name is longer than %(length)d characters.")


class _BoundedUsername:
    def clean_username(self: Any) -> str:
        name: str = self.cleaned_data.get("username") or ""
        if len(name) > username_max_length():
            raise forms.ValidationError(TOO_LONG % {"length": username_max_length()})
        return name


class LoginForm(_BoundedUsername, AuthenticationForm):
    pass


class AdminLoginForm(_BoundedUsername, AdminAuthenticationForm):
    pass


class TokenSerializer(AuthTokenSerializer):
    def validate_username(self, value: str) -> str:
        if len(value) > username_max_length():
            raise serializers.ValidationError(TOO_LONG % {"length": username_max_length()})
        return value
