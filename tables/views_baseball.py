"""Baseball pages: a table's standings, session by session, with the units ledger behind them,
and "Start a new session" as a plain form (the live table also offers it over the websocket).

Views only translate: the readers and the writer are in ``tables.baseball``.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_POST

from tables import baseball, selectors
from tables.models import Table
from tables.services import TableError
from tables.views_lobby import _login_then, _may_watch, _table_url


def _baseball_table(request: HttpRequest, table_id: int) -> Table:
    table = Table.objects.filter(id=table_id, game=baseball.GAME).first()
    if table is None or not _may_watch(request, table_id):
        raise Http404
    return table


def table_standings(request: HttpRequest, table_id: int) -> HttpResponse:
    """Every session of a Baseball table, newest first: the standings, then one line per pot
    with each player's exact net, so anyone can add the lines up and check the standings."""
    table = _baseball_table(request, table_id)
    context = {
        "table": table,
        "game_label": selectors.game_name(table.game),
        "sessions": baseball.sessions_report(table=table),
        "pots_all": baseball.SESSION_POTS,
        "may_restart": baseball.session_over(table) and baseball.may_start_session(table, request.user),
    }
    response = render(request, "tables/standings.html", context)
    patch_vary_headers(response, ("HX-Request",))
    return response


@require_POST
def table_new_session(request: HttpRequest, table_id: int) -> HttpResponseRedirect:
    if not request.user.is_authenticated:
        return _login_then(table_id)
    table = _baseball_table(request, table_id)
    try:
        baseball.table_new_session(table_id=table.id, user=request.user)
    except TableError as exc:
        messages.error(request, str(exc))
        return redirect("table_standings", table_id=table.id)
    return redirect(_table_url(table.id))
