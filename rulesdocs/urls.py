from django.urls import path

from rulesdocs import views

app_name = "rulesdocs"

urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:slug>/", views.page, name="page"),
]
