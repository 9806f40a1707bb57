"""A route that may be framed, for the framing tests only: the site itself has none yet."""

from django.http import HttpResponse
from django.urls import path

from incidents.security.browser_policy import embeddable
from statuspage.urls import urlpatterns as site_patterns

urlpatterns = [
    path("widget/", embeddable(lambda request: HttpResponse("<p>widget</p>")), name="widget"),
    *site_patterns,
]
