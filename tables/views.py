"""Pages of the tables app. Views only translate: parse, call a service or selector, render."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers

from club.selectors import next_game_nights
from tables.selectors import game_catalogue, seated_tables


def home(request: HttpRequest) -> HttpResponse:
    """The front page; a signed-in player finds their seats and their clubs' next nights on top."""
    context = {"games": game_catalogue()}
    if request.user.is_authenticated:
        context.update(my_tables=seated_tables(user=request.user), nights=next_game_nights(user=request.user))
    if getattr(getattr(request, "htmx", None), "target", None) == "foryou":
        # The section's own refresh (every 15 s): "Your turn" and the answers stay current.
        response = render(request, "home.html#foryou", context)
    else:
        response = render(request, "home.html", context)
    patch_vary_headers(response, ("HX-Request",))
    return response
