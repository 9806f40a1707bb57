"""URLs of the editor (namespace `editor`, mounted at /editor/)."""

from django.urls import path

from incidents.importers.statuspage.views import statuspage_import
from incidents.intake import views as intake

from . import (
    api_tokens,
    auth,
    config,
    dashboard,
    deliveries,
    incidents,
    people,
    postmortems,
    probes,
    update_templates,
)

app_name = "editor"

urlpatterns = [
    path("login/", auth.login_view, name="login"),
    path("logout/", auth.logout_view, name="logout"),
    path("", dashboard.overview, name="overview"),
    path("audit/", dashboard.audit, name="audit"),
    path("action-items/", dashboard.action_items, name="action-items"),
    path("action-items/<int:pk>/", postmortems.edit_action_item, name="action-item"),
    path("incidents/new/", incidents.declare, name="declare"),
    path("maintenance/new/", incidents.new_maintenance, name="new-maintenance"),
    path("incidents/<int:pk>/", incidents.incident_detail, name="incident"),
    path("incidents/<int:pk>/edit/", incidents.edit, name="edit-incident"),
    path("incidents/<int:pk>/updates/", incidents.add_update, name="post-update"),
    path("incidents/<int:pk>/resolve/", incidents.resolve, name="resolve"),
    path("incidents/<int:pk>/reopen/", incidents.reopen, name="reopen"),
    path("incidents/<int:pk>/publish/", incidents.publish, name="publish"),
    path("updates/<int:pk>/deliveries/", deliveries.deliveries, name="update-deliveries"),
    path("updates/<int:pk>/deliveries/retry/", deliveries.retry, name="retry-update-deliveries"),
    path("updates/<int:pk>/<str:language>/", incidents.edit_update_view, name="edit-update"),
    path("incidents/<int:pk>/postmortem/", postmortems.postmortem, name="postmortem"),
    path("incidents/<int:pk>/postmortem/publish/", postmortems.publish, name="publish-postmortem"),
    path("incidents/<int:pk>/postmortem/unpublish/", postmortems.unpublish, name="unpublish-postmortem"),
    path("incidents/<int:pk>/postmortem/<str:language>/", postmortems.save, name="save-postmortem"),
    path(
        "incidents/<int:pk>/postmortem/<str:language>/key-figures/",
        postmortems.save_figures,
        name="save-key-figures",
    ),
    path(
        "incidents/<int:pk>/postmortem/<str:language>/preview/",
        postmortems.preview,
        name="preview-postmortem",
    ),
    path("incidents/<int:pk>/action-items/", postmortems.add_action_item, name="add-action-item"),
    path("preview/", postmortems.markdown_preview, name="markdown-preview"),
    path("templates/", update_templates.template_list, name="update-templates"),
    path("templates/new/", update_templates.template_new, name="new-update-template"),
    path("templates/<int:pk>/", update_templates.template_edit, name="update-template"),
    path("templates/<int:pk>/delete/", update_templates.template_delete, name="delete-update-template"),
    path("components/", config.components, name="components"),
    path("components/new/", config.component_new, name="new-component"),
    path("components/<int:pk>/", config.component_detail, name="component"),
    path("components/<int:pk>/metrics/new/", config.metric_new, name="new-metric"),
    path("metrics/<int:pk>/", config.metric_detail, name="metric"),
    path("probes/", probes.probe_list, name="probes"),
    path("probes/new/", probes.probe_new, name="new-probe"),
    path("probes/<int:pk>/", probes.probe_detail, name="probe"),
    path("probes/<int:pk>/token/", probes.probe_token, name="probe-token"),
    path("probes/<int:pk>/secret/", probes.probe_secret, name="probe-secret"),
    path("groups/new/", people.group_edit, name="new-group"),
    path("groups/<int:pk>/", people.group_edit, name="group"),
    path("users/", people.users, name="users"),
    path("import/statuspage/", statuspage_import, name="statuspage-import"),
    path("users/<int:pk>/role/", people.user_role, name="user-role"),
    path("intake/", intake.intake_overview, name="intake"),
    path("intake/rules/new/", intake.rule_new, name="new-alert-rule"),
    path("intake/rules/<int:pk>/", intake.rule_detail, name="alert-rule"),
    path("intake/rules/<int:pk>/delete/", intake.rule_delete, name="delete-alert-rule"),
    path("tokens/", api_tokens.token_list, name="api-tokens"),
    path("tokens/new/", api_tokens.token_new, name="new-api-token"),
    path("tokens/<int:pk>/revoke/", api_tokens.token_revoke, name="revoke-api-token"),
]
