"""People in a club for club tests: an owner, a host, a member, an outsider and an anonymous visitor."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser

from club import services
from club.models import Club, Membership
from club.services import profile_ensure

ROLES = ("owner", "host", "member", "outsider", "anonymous")
HOSTS = ("owner", "host")


def make_user(name: str) -> Any:
    # No password: hashing one costs a good part of a second, and these tests log in with
    # force_login.
    user = get_user_model().objects.create_user(username=name, password=None)
    profile_ensure(user=user, display_name=name.title())
    return user


@dataclass
class People:
    club: Club
    owner: Any
    host: Any
    member: Any
    outsider: Any
    anonymous: Any

    def __getitem__(self, role: str) -> Any:
        return getattr(self, role)


def club_with_people(tag: str = "", chips: int = 0) -> People:
    """A club whose owner named a host, with one plain member; each member gets ``chips``."""
    owner = make_user(f"olga{tag}")
    club = services.club_create(user=owner, name=f"Thursday Club {tag}".strip(), description="Cards at Olga's")
    host = make_user(f"hana{tag}")
    member = make_user(f"misha{tag}")
    for u in (host, member):
        Membership.objects.create(club=club, user=u)
    services.club_set_role(club=club, by=owner, user=host, role="host")
    if chips:
        for u in (owner, host, member):
            services.club_chips_grant(club=club, by=owner, user=u, amount=chips, reason="start of season")
    return People(club=club, owner=owner, host=host, member=member, outsider=make_user(f"oscar{tag}"),
                  anonymous=AnonymousUser())


def balance(club: Club, user: Any) -> int:
    return Membership.objects.get(club=club, user=user).balance
