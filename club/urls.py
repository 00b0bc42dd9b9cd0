from django.contrib.auth import views as auth_views
from django.urls import path

from club import views, views_clubs

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/me/", views.profile, name="profile"),
    path("accounts/me/top-up/", views.top_up, name="top_up"),
    path("accounts/me/name/", views.rename, name="rename"),
    path("accounts/me/password/", views.password_change, name="password_change"),
    # Clubs (issue #5)
    path("clubs/", views_clubs.my_clubs, name="my_clubs"),
    path("clubs/new/", views_clubs.club_new, name="club_new"),
    path("clubs/join/<str:code>/", views_clubs.club_join, name="club_join"),
    path("clubs/<int:club_id>/", views_clubs.club_home, name="club_home"),
    path("clubs/<int:club_id>/ask/", views_clubs.club_request_join, name="club_request_join"),
    path("clubs/<int:club_id>/leave/", views_clubs.club_leave, name="club_leave"),
    path("clubs/<int:club_id>/members/", views_clubs.club_members, name="club_members"),
    path("clubs/<int:club_id>/settings/", views_clubs.club_settings, name="club_settings"),
    path("clubs/<int:club_id>/delete/", views_clubs.club_delete, name="club_delete"),
    path("clubs/<int:club_id>/members/<int:user_id>/chips/", views_clubs.member_chips, name="club_member_chips"),
    path("clubs/<int:club_id>/members/<int:user_id>/role/", views_clubs.member_role, name="club_member_role"),
    path("clubs/<int:club_id>/members/<int:user_id>/remove/", views_clubs.member_remove, name="club_member_remove"),
    path("clubs/<int:club_id>/requests/<int:request_id>/<str:answer>/", views_clubs.request_answer, name="club_request_answer"),
    path("clubs/<int:club_id>/invites/", views_clubs.club_invites, name="club_invites"),
    path("clubs/<int:club_id>/invites/<int:invite_id>/revoke/", views_clubs.invite_revoke, name="club_invite_revoke"),
    path("clubs/<int:club_id>/chips/ask/", views_clubs.chips_ask, name="club_chips_ask"),
    path("clubs/<int:club_id>/chips/<int:request_id>/<str:answer>/", views_clubs.chips_answer, name="club_chips_answer"),
    path("clubs/<int:club_id>/ledger/", views_clubs.club_ledger, name="club_ledger"),
    path("clubs/<int:club_id>/ledger.csv", views_clubs.club_ledger_csv, name="club_ledger_csv"),
    path("clubs/<int:club_id>/sessions/", views_clubs.club_sessions, name="club_sessions"),
    path("clubs/<int:club_id>/sessions/start/", views_clubs.session_start, name="club_session_start"),
    path("clubs/<int:club_id>/sessions/<int:session_id>/", views_clubs.session_page, name="club_session"),
    path("clubs/<int:club_id>/sessions/<int:session_id>/end/", views_clubs.session_end, name="club_session_end"),
    path("clubs/<int:club_id>/sessions/<int:session_id>/results.csv", views_clubs.session_csv, name="club_session_csv"),
    path("clubs/<int:club_id>/leaderboard/", views_clubs.club_leaderboard, name="club_leaderboard"),
    path("clubs/<int:club_id>/nights/", views_clubs.game_night_schedule, name="club_night_schedule"),
    path("clubs/<int:club_id>/nights/<int:night_id>/reply/", views_clubs.game_night_reply, name="club_night_reply"),
    path("clubs/<int:club_id>/nights/<int:night_id>/cancel/", views_clubs.game_night_cancel, name="club_night_cancel"),
    path("clubs/<int:club_id>/nights/<int:night_id>/calendar.ics", views_clubs.game_night_ics, name="club_night_ics"),
]
