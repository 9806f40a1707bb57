from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class IncidentsConfig(AppConfig):
    name = "incidents"
    verbose_name = _("Status page")
    default_auto_field = "django.db.models.BigAutoField"
