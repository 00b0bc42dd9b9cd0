from django.urls import path

from tables import views, views_baseball, views_club, views_hand, views_hands, views_lobby

urlpatterns = [
    path("", views.home, name="home"),
    path("hand/", views_hand.hand, name="hand"),
    path("lobby/", views_lobby.lobby, name="lobby"),
    path("accounts/me/hands/", views_hands.my_hands, name="my_hands"),
    path("tables/new/", views_lobby.table_new, name="table_new"),
    path("tables/new/stakes/", views_lobby.stakes_help, name="stakes_help"),
    path("tables/mine.json", views_lobby.my_tables, name="my_tables"),
    path("tables/<int:table_id>/", views_lobby.table_page, name="table"),
    path("tables/<int:table_id>/invite/", views_lobby.table_invite, name="table_invite"),
    path("tables/<int:table_id>/sit/", views_lobby.table_sit, name="table_sit"),
    path("tables/<int:table_id>/leave/", views_lobby.table_leave, name="table_leave"),
    path("tables/<int:table_id>/add-chips/", views_lobby.table_add_chips, name="table_add_chips"),
    # Club tables (issue #5): a host opens them and runs them from the table page.
    path("clubs/<int:club_id>/tables/new/", views_club.club_table_new, name="club_table_new"),
    path("tables/<int:table_id>/host/sit-out/", views_club.table_host_sit_out, name="table_host_sit_out"),
    path("tables/<int:table_id>/host/terms/", views_club.table_host_terms, name="table_host_terms"),
    path("tables/<int:table_id>/host/game/", views_club.table_host_game, name="table_host_game"),
    path("tables/<int:table_id>/host/levels/", views_club.table_host_levels, name="table_host_levels"),
    path("tables/<int:table_id>/host/freezeout/", views_club.table_host_freezeout, name="table_host_freezeout"),
    path("tables/<int:table_id>/host/new-invite/", views_club.table_host_new_invite, name="table_host_new_invite"),
    path("tables/<int:table_id>/host/straddles/", views_club.table_host_straddles, name="table_host_straddles"),
    path("tables/<int:table_id>/host/run-twice/", views_club.table_host_run_twice, name="table_host_run_twice"),
    path("tables/<int:table_id>/host/rabbit/", views_club.table_host_rabbit, name="table_host_rabbit"),
    path("tables/<int:table_id>/host/bomb/", views_club.table_host_bomb, name="table_host_bomb"),
    path("tables/<int:table_id>/host/seven-deuce/", views_club.table_host_seven_deuce, name="table_host_seven_deuce"),
    path("tables/<int:table_id>/host/stand-up/", views_club.table_host_stand_up, name="table_host_stand_up"),
    path("tables/<int:table_id>/host/requests/<int:request_id>/<str:answer>/", views_club.table_seat_request_answer,
         name="table_seat_request_answer"),
    path("tables/<int:table_id>/host/<str:action>/", views_club.table_host_action, name="table_host_action"),
    # Baseball (issue #8): sessions of 8 pots and their standings.
    path("tables/<int:table_id>/standings/", views_baseball.table_standings, name="table_standings"),
    path("tables/<int:table_id>/new-session/", views_baseball.table_new_session, name="table_new_session"),
    path("tables/<int:table_id>/hands/<int:number>/", views_hands.hand_history, name="hand_history"),
    path("tables/<int:table_id>/hands/<int:number>.phh", views_hands.hand_history_phh, name="hand_history_phh"),
    path("tables/<int:table_id>/hands.phhs", views_hands.table_hands_phhs, name="table_hands_phhs"),
    path("tables/<int:table_id>/ledger/", views_hands.table_ledger, name="table_ledger"),
    path("tables/<int:table_id>/levels/", views_hands.table_levels, name="table_levels"),
    path("tables/<int:table_id>/ledger.csv", views_hands.table_ledger_csv, name="table_ledger_csv"),
]
