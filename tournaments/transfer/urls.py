"""A tournament carried whole, under /t/: its export and the import."""

from django.urls import path

from tournaments.transfer import views as transfer

urlpatterns = [
    path("import/", transfer.tournament_import, name="tournament-import"),
    path("<slug:slug>/export.json", transfer.tournament_export, name="tournament-export"),
]
