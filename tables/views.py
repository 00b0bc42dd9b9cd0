"""Pages of the tables app. Views only translate: parse, call a service or selector, render."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tables.selectors import game_catalogue


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"games": game_catalogue()})
