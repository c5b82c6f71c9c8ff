from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from tournaments.models import Club, Entry, Player, Tournament


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")

    @factory.post_generation
    def password(self, create: bool, extracted: str | None, **kwargs: object) -> None:
        self.set_password(extracted or "secret-pass-123")
        if create:
            self.save()


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n}")
    club = factory.SubFactory(ClubFactory)


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Open {n}")
    slug = factory.Sequence(lambda n: f"open-{n}")
    published = True


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory, club=factory.SelfAttribute("..tournament.club"))
    seed = factory.Sequence(lambda n: n + 1)


def tournament_with_players(n: int, **kwargs: object) -> Tournament:
    tournament = TournamentFactory(**kwargs)
    for i in range(n):
        EntryFactory(tournament=tournament, seed=i + 1, player__name=f"P{i + 1:02d}")
    return tournament
