"""Finished hands at a table: a page per hand and its PHH download."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tables import selectors
from tables.models import Hand


def _finished_hand(request: HttpRequest, table_id: int, number: int) -> Hand:
    invited = request.session.get("invited_tables", [])
    if not selectors.can_watch(table_id=table_id, user=request.user, invited_tables=invited):
        raise Http404
    hand = Hand.objects.filter(table_id=table_id, number=number, ended__isnull=False).select_related("table").first()
    if hand is None:
        raise Http404
    return hand


def hand_history(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    hand = _finished_hand(request, table_id, number)
    context = selectors.finished_hand_context(hand=hand)
    return render(request, "tables/hand_history.html", context)


def hand_history_phh(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    hand = _finished_hand(request, table_id, number)
    if not hand.phh:
        raise Http404
    response = HttpResponse(hand.phh, content_type="application/toml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="table{table_id}-hand{number}.phh"'
    return response
