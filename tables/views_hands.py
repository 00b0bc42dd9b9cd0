"""Finished hands at a table: a page per hand, its PHH download, all of them in one file, and
the table's ledger (who bought in for how much, and who is up); and a player's own hands at
every table."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from rules_engine import fairness
from tables import selectors
from tables.models import Hand, Table

MAX_HANDS_IN_FILE = 1000


def _require_watcher(request: HttpRequest, table_id: int) -> None:
    """404 for anyone who may not watch the table (a private table's stranger, a club outsider)."""
    if not selectors.can_watch(table_id=table_id, user=request.user, invited=selectors.invited_tables(request.session)):
        raise Http404


def _require_ledger_reader(request: HttpRequest, table_id: int) -> None:
    """The ledger is for whoever may watch the table, and for whoever played at it when it is not
    a club's (a guest who stood up and lost the link still reads the night they played)."""
    if selectors.can_watch(table_id=table_id, user=request.user, invited=selectors.invited_tables(request.session)):
        return
    from tables.models import Table

    if not (Table.objects.filter(id=table_id, club__isnull=True).exists()
            and selectors.played_at(table_id=table_id, user=request.user)):
        raise Http404


def _watcher(request: HttpRequest, table_id: int) -> bool:
    return selectors.can_watch(table_id=table_id, user=request.user, invited=selectors.invited_tables(request.session))


def _finished_hand(request: HttpRequest, table_id: int, number: int) -> Hand:
    """The finished hand, for whoever may watch its table or was dealt into it: a player's own
    hands stay theirs to read ("Your hands") after they lose sight of the table (left a club,
    lost a private table's link). Else 404, as for a hand that does not exist."""
    if not (0 < table_id < 2**63 and 0 < number < 2**63):
        raise Http404  # past what the database holds (an audit: a 20-digit table id gave a 500)
    hand = Hand.objects.filter(table_id=table_id, number=number, ended__isnull=False).select_related("table").first()
    if hand is None:
        raise Http404
    hand.watcher = _watcher(request, table_id)  # type: ignore[attr-defined]
    if not hand.watcher and not selectors.dealt_in(hand=hand, user=request.user):  # type: ignore[attr-defined]
        raise Http404
    return hand


def hand_history(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    hand = _finished_hand(request, table_id, number)
    # The replay, step by step (``?step=k``): a step's buttons ask htmx for the replay alone.
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    replay = selectors.hand_replay(hand=hand, user=request.user, step=step)
    htmx = getattr(request, "htmx", None)
    if htmx and htmx.target == "replay" and not htmx.history_restore_request:
        return render(request, "tables/_replay.html", {"replay": replay, "hand": hand, "table": hand.table})
    context = selectors.finished_hand_context(hand=hand, user=request.user)
    context["replay"] = replay
    context["watcher"] = hand.watcher  # type: ignore[attr-defined]
    if hand.watcher:  # type: ignore[attr-defined]
        # The hands just before and after, to read a night's hands one after another (not for
        # a player who only reads their own: the others are not theirs to open).
        ended = Hand.objects.filter(table_id=table_id, ended__isnull=False)
        context["previous_number"] = (ended.filter(number__lt=number).order_by("-number")
                                      .values_list("number", flat=True).first())
        context["next_number"] = ended.filter(number__gt=number).order_by("number").values_list("number", flat=True).first()
    # The history this viewer may see: unshown hands hidden, the viewer's own cards included.
    text = selectors.hand_history_text(hand=hand, user=request.user)
    context["phh"] = text
    if hand.deck_commitment:
        try:
            context["verification"] = fairness.verify_phh(text)
        except ValueError as exc:
            context["verification"] = {"ok": False, "message": str(exc)}
        context["places"] = selectors.deck_disclosure(phh_text=text)
        # Cards shown after the hand ("Show my cards") are not in the history the check reads:
        # their places stay sealed, and the line says so (found by an audit).
        context["shown_after"] = bool(hand.shown_after)
        context["match_text"] = _("✓ Your browser got the same fingerprint.")
        context["mismatch_text"] = _("✗ The fingerprint does not match.")
        context["no_crypto_text"] = _("This browser cannot compute SHA-256 here (it needs a secure page).")
    return render(request, "tables/hand_history.html", context)


def hand_history_phh(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    hand = _finished_hand(request, table_id, number)
    text = selectors.hand_history_text(hand=hand, user=request.user)
    response = HttpResponse(text, content_type="application/toml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="table{table_id}-hand{number}.phh"'
    return response


def table_hands_phhs(request: HttpRequest, table_id: int) -> HttpResponse:
    """Every finished hand of the table as one ``.phhs`` file, each hand as this viewer may see
    it (the same text as its own PHH download), under a table named by its number."""
    from rules_engine.notation import join_phhs

    _require_watcher(request, table_id)
    # The last MAX_HANDS_IN_FILE hands (about 10 ms each to write): a home game's night is a few
    # hundred; each older hand keeps its own page and PHH download.
    newest = list(Hand.objects.filter(table_id=table_id, ended__isnull=False).select_related("table")
                  .order_by("-number")[:MAX_HANDS_IN_FILE])
    newest.reverse()
    text = "".join(join_phhs((h.number, selectors.hand_history_text(hand=h, user=request.user)) for h in newest))
    response = HttpResponse(text, content_type="application/toml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="table{table_id}-hands.phhs"'
    return response


def table_ledger(request: HttpRequest, table_id: int) -> HttpResponse:
    """The table's ledger, for whoever may watch the table. Baseball plays for units and has its
    standings instead."""
    from django.shortcuts import get_object_or_404, redirect
    from django.template.loader import render_to_string

    from tables.models import Table

    _require_ledger_reader(request, table_id)
    table = get_object_or_404(Table, id=table_id)
    if table.game == "BB":
        return redirect("table_standings", table_id=table.id)
    # Every game the table dealt, not only today's (found by an audit: a dealer's choice night of
    # ten games was headed "No-limit Hold'em").
    played = set(Hand.objects.filter(table_id=table.id).values_list("game", flat=True).distinct())
    games = [c for c in selectors.GAME_NAMES if c in played] + sorted(played - set(selectors.GAME_NAMES))
    label = ", ".join(selectors.game_name(c) for c in games) if len(games) > 1 else selectors.game_name(table.game)
    context = {"table": table, "game_label": label, **selectors.table_ledger(table=table),
               "freezeouts": selectors.freezeout_results(table=table), "may_watch": _watcher(request, table_id)}
    if context["rows"]:
        context["share_text"] = render_to_string("tables/_ledger_text.txt", context, request=request).strip()
    return render(request, "tables/ledger.html", context)


def table_ledger_csv(request: HttpRequest, table_id: int) -> HttpResponse:
    """The table's ledger as a spreadsheet (``club.csvfile``), for whoever may see the ledger:
    a row per player, then the house's rake, so that the Net column sums to zero."""
    from django.shortcuts import get_object_or_404, redirect
    from django.utils import timezone

    from club.csvfile import csv_response, filename
    from tables.models import Table

    _require_ledger_reader(request, table_id)
    table = get_object_or_404(Table, id=table_id)
    if table.game == "BB":
        return redirect("table_standings", table_id=table.id)
    ledger = selectors.table_ledger(table=table)
    header = [_("Player"), _("Net"), _("Bought in"), _("Took away"), _("On the table")]
    rows: list[list[object]] = [[r["name"], r["net"], r["bought"], r["left"], r["on_table"]] for r in ledger["rows"]]
    if ledger["rake"]:
        rows.append([_("Rake"), ledger["rake"], None, None, None])
    return csv_response(filename(_("Ledger"), table.name, timezone.localdate().isoformat()), header, rows)


def table_levels(request: HttpRequest, table_id: int) -> HttpResponse:
    """Blinds on a clock: every level of the table's ladder, its blinds and when it starts, for
    whoever may watch the table (a freeze-out's players plan their night by it, as a
    tournament's structure sheet)."""
    from django.shortcuts import get_object_or_404
    from django.utils import timezone

    from tables import freezeout, levels
    from tables.stakes import stakes_text

    if not _watcher(request, table_id):
        raise Http404
    table = get_object_or_404(Table, id=table_id)
    now = timezone.now()
    rows = levels.schedule(table)
    for row in rows:
        row["stakes"] = stakes_text(table.game, row["small"], row["big"])
        if row["starts_at"] is not None:
            row["minutes"] = max(0, int((row["starts_at"] - now).total_seconds() + 59) // 60)
        elif row["starts_in_s"] is not None:
            row["minutes"] = (row["starts_in_s"] + 59) // 60
    fo = getattr(table, "freezeout", None) or {}
    context = {
        "table": table, "game_label": selectors.game_name(table.game), "rows": rows,
        "minutes": table.level_minutes, "paused": bool(rows) and table.level_ends_at is None,
        "late": int(fo.get("late") or 0) if freezeout.running(table) else 0,
    }
    return render(request, "tables/levels.html", context)


HANDS_PER_PAGE = 50


def table_hands(request: HttpRequest, table_id: int) -> HttpResponse:
    """Every finished hand of a table, newest first, 50 a page, each with its winners and linked
    to its page; "Go to hand #" opens one by number (found by an audit: a watcher reached hand
    150 of 370 only one hand at a time from the table's last ten)."""
    from django.contrib import messages
    from django.urls import reverse

    if not 0 < table_id < 2**63:
        raise Http404
    _require_watcher(request, table_id)
    table = Table.objects.filter(id=table_id).first()
    if table is None:
        raise Http404
    ended = Hand.objects.filter(table_id=table_id, ended__isnull=False)
    wanted = request.GET.get("hand", "").strip().lstrip("#")
    if wanted:
        number = int(wanted) if wanted.isascii() and wanted.isdigit() and len(wanted) <= 18 else 0
        if number and ended.filter(number=number).exists():
            return redirect("hand_history", table_id=table_id, number=number)
        messages.error(request, _("This table has no finished hand #%(n)s.") % {"n": wanted[:20]})
        return redirect(reverse("table_hands", args=[table_id]))
    pages = Paginator(ended.order_by("-number").values_list("id", flat=True), HANDS_PER_PAGE)
    asked = request.GET.get("page", "")
    page = pages.get_page(pages.num_pages if asked == "last" else asked)
    rows = list(Hand.objects.filter(id__in=list(page.object_list)).order_by("-number")
                .values("id", "number", "game", "ended", "players", "result"))
    selectors.add_winners(rows)
    return render(request, "tables/table_hands.html", {
        "table": table, "rows": rows, "page": page, "total": pages.count,
        "mixed": len({r["game"] for r in rows}) > 1, "newest": rows[0]["number"] if rows and page.number == 1 else None,
    })


@login_required
def my_hands(request: HttpRequest) -> HttpResponse:
    """The player's own hands, at every table, newest first: a page of 50 at a time, each with
    its table, game and what it did to the player's stack, linked to the hand's page."""
    summary: list[dict[str, object]] = []
    asked = request.GET.get("game", "")[:8]
    ids = selectors.hands_played(user=request.user, game=asked, summary=summary)
    played = {str(r["game"]) for r in summary}
    game = asked if asked in played else ""
    if asked and not game:  # a game the player never played (or nonsense): every hand
        ids = selectors.hands_played(user=request.user)
    for r in summary:
        r["name"] = selectors.game_name(str(r["game"]))
    pages = Paginator(ids, HANDS_PER_PAGE)
    page = pages.get_page(request.GET.get("page"))
    rows = selectors.hand_rows(user=request.user, hand_ids=list(page.object_list))
    # Each table linked only while the player may still open it (the hand's own page they may).
    watch = {t: _watcher(request, t) for t in {r["table_id"] for r in rows}}
    for r in rows:
        r["watch"] = watch[r["table_id"]]
    return render(request, "tables/my_hands.html", {
        "rows": rows, "page": page, "total": pages.count,
        "mixed": len({r["game"] for r in rows}) > 1,
        "summary": summary if len(summary) > 1 or game else [], "game": game,
        "game_query": f"game={game}&" if game else "",
    })
