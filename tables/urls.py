from django.urls import path

from tables import views, views_hand, views_hands, views_lobby

urlpatterns = [
    path("", views.home, name="home"),
    path("hand/", views_hand.hand, name="hand"),
    path("lobby/", views_lobby.lobby, name="lobby"),
    path("tables/new/", views_lobby.table_new, name="table_new"),
    path("tables/<int:table_id>/", views_lobby.table_page, name="table"),
    path("tables/<int:table_id>/invite/", views_lobby.table_invite, name="table_invite"),
    path("tables/<int:table_id>/sit/", views_lobby.table_sit, name="table_sit"),
    path("tables/<int:table_id>/leave/", views_lobby.table_leave, name="table_leave"),
    path("tables/<int:table_id>/hands/<int:number>/", views_hands.hand_history, name="hand_history"),
    path("tables/<int:table_id>/hands/<int:number>.phh", views_hands.hand_history_phh, name="hand_history_phh"),
]
