"""URLs where monitored systems send us readings (namespace `probes`, mounted at /probes/)."""

from django.urls import path

from . import probes

app_name = "probes"

urlpatterns = [
    path("webhook/<str:public_id>/", probes.webhook_receiver, name="webhook"),
    path("push/<str:public_id>/", probes.push_endpoint, name="push"),
]
