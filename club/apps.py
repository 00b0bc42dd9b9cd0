from django.apps import AppConfig


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = "Clubs"

    def ready(self) -> None:
        from config import checks  # noqa: F401  (registers the deployment's checks)
