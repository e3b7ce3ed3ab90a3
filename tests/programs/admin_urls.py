"""Only the admin's URLs, so the admin tests don't depend on the rest of the site."""

from django.contrib import admin
from django.urls import path

urlpatterns = [path("admin/", admin.site.urls)]
