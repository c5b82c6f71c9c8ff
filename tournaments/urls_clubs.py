"""A club's own pages: its seasons and its statistics (issue 26)."""

from django.urls import path

urlpatterns: list = []
