"""The shipped URLconf plus one async view: ``config.serving`` sends async views to the loop, and
the shipped URLconf has none today (the reply stream is a plain view whose wait runs on the loop)."""

from django.http import HttpResponse
from django.urls import path

from config.urls import urlpatterns as shipped


async def on_the_loop(request):
    return HttpResponse("asgi")


urlpatterns = [path("async-probe/", on_the_loop), *shipped]
