from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables"

    def ready(self) -> None:
        # club asks about tables through its port (club never imports tables).
        from club.ports import register_tables_port
        from tables.club_port import TablesForClubs

        register_tables_port(TablesForClubs())

        from django.contrib.auth.signals import user_logged_out

        from tables.live import close_sockets_on_logout

        user_logged_out.connect(close_sockets_on_logout, dispatch_uid="tables.close_sockets_on_logout")
