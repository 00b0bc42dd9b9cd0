from django.contrib.auth import views as auth_views
from django.urls import path

from club import views

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/me/", views.profile, name="profile"),
    path("accounts/me/top-up/", views.top_up, name="top_up"),
]
