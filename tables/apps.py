from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables"

    def ready(self) -> None:
        # club asks about tables through its port (club never imports tables).
        from club.ports import register_tables_port
        from tables.club_port import TablesForClubs

        register_tables_port(TablesForClubs())
