from django.urls import path

from tables import views

urlpatterns = [
    path("", views.home, name="home"),
]
