from django.urls import path

from . import views

app_name = "wellness"

urlpatterns = [
    path("", views.wellness_page, name="page"),
    path("<str:kind>/<id:pk>/delete/", views.log_delete, name="delete"),
]
