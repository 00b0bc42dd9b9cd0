"""The server's hot path, in one process with no network: what one action costs the server.

An action at a live table is one ``tables.services.table_act`` (the writer) and then, for every
viewer, one ``tables.selectors.table_snapshot`` (the read and the render each consumer does when
the table moves). This plays Patch-Patch and NL Hold'em (NT) hands at a three-player table (every
player checks, else calls, and arranges at once), with a spectator watching, and reports the
milliseconds of each part per action, on SQLite (a temporary file) or, when
``BENCH_DATABASE_URL`` is set, that PostgreSQL database (it must exist; its tables are migrated).

``python bench/bench_hotpath.py [actions] [--profile]``: with ``--profile`` it prints the
functions that took the most time (cProfile), which is how the hot path was found and fixed.
"""
import cProfile
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

ACTIONS = 600
GAMES = tuple(os.environ.get("BENCH_HOTPATH_GAMES", "PP,NT").split(","))


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["CELERY_EMBEDDED_WORKER"] = "0"
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "0"
    url = os.environ.get("BENCH_DATABASE_URL", "")
    if url:
        os.environ["DATABASE_URL"] = url
    else:
        os.environ.pop("DATABASE_URL", None)
        os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp(prefix="hotpath-")) / "bench.sqlite3")
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def _table(game: str, tag: str) -> tuple[Any, list[Any], Any]:
    from django.contrib.auth import get_user_model

    from club.services import profile_ensure
    from tables import services

    def user(name: str) -> Any:
        u = get_user_model().objects.create_user(username=f"{name}-{tag}", password=None)
        profile_ensure(user=u)
        return u

    table = services.table_create(creator=None, name=f"bench {tag}", small_blind=5, big_blind=10,
                                  max_seats=3, is_public=True, game=game)
    services.table_pause(table_id=table.id, now=True)
    players = [user(f"p{i}") for i in range(3)]
    for u in players:
        services.table_take_seat(table_id=table.id, user=u, buy_in=1000)
    services.table_resume(table_id=table.id)
    return table, players, user("watcher")


def _play(game: str, actions: int, profiler: cProfile.Profile | None) -> dict[str, list[float]]:
    import datetime as dt

    from django.utils import timezone

    from rules_engine.games import get_variant
    from tables import selectors, services
    from tables.consumers import message_text
    from tables.models import Hand, Seat, Table

    table, players, watcher = _table(game, f"{game}-{time.monotonic_ns()}")
    by_id = {u.pk: u for u in players}
    times: dict[str, list[float]] = {"act": [], "render_player": [], "render_spectator": [], "plain": [], "deflated": []}
    wire = {u.pk: _Wire() for u in players}
    done = 0
    while done < actions:
        t = Table.objects.get(id=table.id)
        hand = Hand.objects.filter(table=t).order_by("-number").first()
        if hand is None or hand.ended is not None:
            # The showdown pause, or a stack ran dry: move the clock on, top up, deal.
            for seat in Seat.objects.filter(table=t, stack__lt=200):
                seat.stack = 1000
                seat.save(update_fields=["stack"])
            services.table_expire(table_id=t.id, now=timezone.now() + dt.timedelta(hours=1))
            continue
        state = get_variant(t.game).from_json(hand.state)
        idx = state.actors()[0]
        kinds = [a.kind for a in state.legal_actions(idx)]
        choice = next((k for k in ("done", "check", "call") if k in kinds), kinds[0])
        seat_no, user_id, _ = hand.players[idx]
        if profiler:
            profiler.enable()
        t0 = time.perf_counter()
        version = services.table_act(table_id=t.id, user=by_id[user_id],
                                     message={"action": choice, "version": t.version}).version
        t1 = time.perf_counter()
        snaps = [selectors.table_snapshot(table_id=t.id, user=u, version_hint=version) for u in players]
        t2 = time.perf_counter()
        selectors.table_snapshot(table_id=t.id, user=watcher, version_hint=version)
        t3 = time.perf_counter()
        if profiler:
            profiler.disable()
        times["act"].append(t1 - t0)
        times["render_player"].append((t2 - t1) / len(players))
        times["render_spectator"].append(t3 - t2)
        for u, snap in zip(players, snaps, strict=True):  # what each player's socket carries
            plain, deflated = wire[u.pk].send(message_text(snap).encode())
            times["plain"].append(plain)
            times["deflated"].append(deflated)
        done += 1
    return times


class _Wire:
    """One player's socket as Daphne sends on it with compression on (``config/wsdeflate.py``):
    one compressor kept from message to message, with the same window and memory level."""

    def __init__(self) -> None:
        import zlib

        from config import wsdeflate

        self.zlib = zlib
        self.compressor = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED,
                                           -wsdeflate.SERVER_WINDOW_BITS, wsdeflate.SERVER_MEM_LEVEL)

    def send(self, data: bytes) -> tuple[int, int]:
        out = self.compressor.compress(data) + self.compressor.flush(self.zlib.Z_SYNC_FLUSH)
        return len(data), len(out) - 4  # the flush's last four bytes are never sent (RFC 7692)


def _ms(values: list[float]) -> str:
    return f"{statistics.fmean(values) * 1000:.2f}"


def run(actions: int = ACTIONS) -> str:
    """For bench/run.py: measured in a process of its own, so that its Django set-up (a
    temporary SQLite database) never leaks into the benchmarks that run after it."""
    import subprocess

    out = subprocess.run([sys.executable, __file__, str(actions), "--markdown"], capture_output=True, text=True,
                         timeout=1800, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"bench_hotpath failed:\n{out.stderr[-2000:]}")
    marker = "## The hot path"
    progress, _, section = out.stdout.partition(marker)
    for line in progress.splitlines():
        if line.startswith("| "):
            print(line, flush=True)
    return (marker + section).strip()


def measure(actions: int = ACTIONS, profile: bool = False) -> str:
    _setup()
    from django.conf import settings

    profiler = cProfile.Profile() if profile else None
    rows = []
    for game in GAMES:
        _play(game, 30, None)  # warm up: templates compiled, caches filled
        times = _play(game, actions, profiler)
        total = [a + 3 * p + s for a, p, s in zip(times["act"], times["render_player"], times["render_spectator"], strict=True)]
        plain, deflated = statistics.fmean(times["plain"]), statistics.fmean(times["deflated"])
        line = (f"| {game} | {len(total)} | {_ms(times['act'])} | {_ms(times['render_player'])} | "
                f"{_ms(times['render_spectator'])} | {_ms(total)} | {1 / statistics.fmean(total):.0f} | "
                f"{plain:,.0f} B / {deflated:,.0f} B ({plain / deflated:.0f}x) |")
        print(line, flush=True)
        rows.append(line)
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
    db = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    return "\n".join([
        "## The hot path: one action's cost to the server, no network (issue #9)",
        "",
        f"One process, database {db}; a three-player table and one spectator; every player checks, "
        "else calls, and arranges at once. An action is the writer (`table_act`: lock, version "
        "check, engine, save) plus one read-and-render (`table_snapshot`) for each of the three "
        "players and the spectator, which is what the consumers do when the table moves. Means, "
        "in milliseconds; 'actions/s on one core' is the actions per second one core could serve at that "
        "cost (websockets, Redis and the database server's own CPU not counted). The last column is "
        "what a player's socket carries for each picture: its JSON as sent, and the bytes on the "
        "wire with the compression browsers ask for (permessage-deflate, `config/wsdeflate.py`: one "
        "compressor per socket, its window kept from one picture to the next).",
        "",
        "| game | actions | writer ms | render per player ms | render spectator ms | total ms | actions/s on one core | "
        "a player's picture: plain / compressed |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
    ])


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    print(measure(int(args[0]) if args else ACTIONS, profile="--profile" in sys.argv))
