"""URLs of subscriptions (namespace `subscribe`): the public forms and links and the JSON endpoint.
Mounted with a language prefix."""

from django.urls import path

from . import subscribe

app_name = "subscribe"

urlpatterns = [
    path("subscribe/", subscribe.subscribe, name="form"),
    path("subscribe/api/", subscribe.api_subscribe, name="api"),
    path("subscribe/webhook/", subscribe.subscribe_webhook, name="webhook"),
    path("subscribe/chat/<str:channel>/", subscribe.subscribe_chat, name="chat"),
    path("subscribe/webhooks/", subscribe.webhooks, name="webhooks"),
    path("subscribe/incidents/<slug:slug>/", subscribe.follow, name="follow"),
    path("subscribe/follow/<str:token>/", subscribe.follow_from_mail, name="follow-from-mail"),
    path("subscribe/confirm/<str:token>/", subscribe.confirm, name="confirm"),
    path("subscribe/code/<str:token>/", subscribe.sms_code, name="sms-code"),
    path("subscribe/manage/<str:token>/", subscribe.manage, name="manage"),
    path("subscribe/unsubscribe/<str:token>/", subscribe.unsubscribe, name="unsubscribe"),
]
