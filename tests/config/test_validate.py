"""config validate: every mistake of a file reported at once, one line each naming its path."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from incidents.configuration.checking import check_document
from incidents.configuration.document import DocumentError, parse_yaml
from tests.conftest import database_rows

TWENTY_MISTAKES = """
version: 1
regions:
  - name: eu-north
  - name: EU_North
groups:
  - {slug: core, name: {en: Core}}
  - {slug: core, name: {en: Core again}}
components:
  - {slug: api, name: {en: API}, group: storage}
  - {slug: web, name: {en: Web}, group: core, colour: blue}
  - {slug: jobs, name: {en: Jobs}, position: first}
  - {slug: mail}
  - {slug: db, name: {en: Database}, uptime_target: 101}
  - {slug: events, name: {en: Events}, status_mode: automatic}
metrics:
  - {component: billing, slug: m0, name: {en: M0}}
  - {component: web, slug: m1, name: {en: M1}, unit: minutes}
  - component: web
    slug: m2
    name: {en: M2}
    thresholds: {degraded_performance: 500, partial_outage: 300}
  - {component: web, slug: m3, name: {en: M3}, expected_interval: 0}
  - {component: web, slug: p0, name: {en: P0}}
  - {component: web, slug: p1, name: {en: P1}}
  - {component: web, slug: p2, name: {en: P2}}
  - {component: web, slug: p3, name: {en: P3}}
  - {component: web, slug: p4, name: {en: P4}}
  - {component: web, slug: p5, name: {en: P5}}
  - {component: web, slug: p6, name: {en: P6}}
probes:
  - {metric: web/p0, name: P0, kind: ftp, url: "https://web.example/"}
  - {metric: web/p1, name: P1, kind: http, url: "https://web.example/", interval: 0}
  - {metric: web/p2, name: P2, kind: http, url: "https://web.example/", interval: 3, timeout: 2}
  - {metric: web/p3, name: P3, kind: http, url: "https://web.example/", regions: [mars]}
  - {metric: web/p4, name: P4, kind: http, url: "not a url"}
  - metric: web/p5
    name: P5
    kind: http
    url: "https://web.example/"
    config: {headers: {Authorization: "Bearer written-out"}}
  - metric: web/p6
    name: P6
    kind: http
    url: "https://web.example/"
    config: {headers: {Authorization: {env: CONFIG_TEST_UNSET_TOKEN}}}
update_templates:
  - {name: Outage, language: en, kind: incident, status: investigating, body: {en: Looking.}}
  - {name: Outage, language: en, kind: incident, status: identified, body: {en: Found.}}
alert_rules:
  - name: Events down
    component: events
    matchers: ['job=~"(unclosed"']
"""

EXPECTED = {
    "regions[1].name": "",
    "groups[1].slug": "duplicate of groups[0]",
    "components[0].group": 'unknown group "storage"',
    "components[1].colour": "unknown key",
    "components[2].position": "not of type 'integer'",
    "components[3].name": "required",
    "components[4].uptime_target": "100",
    "metrics[0].component": 'unknown component "billing"',
    "metrics[1].unit": '"minutes" is not one of',
    "metrics[2].thresholds.partial_outage": "must be below",
    "metrics[3].expected_interval": "greater than or equal to 1",
    "probes[0].kind": '"ftp" is not one of',
    "probes[1].interval": "greater than or equal to 1",
    "probes[2].interval": "between 10 and",
    "probes[3].regions[0]": 'unknown region "mars"',
    "probes[4].url": "valid",
    "probes[5].config.headers.Authorization": "{env: NAME}",
    "probes[6].config.headers.Authorization": "CONFIG_TEST_UNSET_TOKEN is not set",
    "update_templates[1].name": "duplicate of update_templates[0]",
    "alert_rules[0].matchers": "RE2",
}


@pytest.mark.django_db
def test_a_file_with_twenty_mistakes_gets_twenty_errors_naming_their_places_and_changes_nothing(
    config_file, public_dns, component
):
    path = config_file(TWENTY_MISTAKES)
    before = database_rows()

    with pytest.raises(DocumentError) as raised:
        check_document(parse_yaml(TWENTY_MISTAKES), environ={})
    errors = io.StringIO()
    with pytest.raises(CommandError, match="20 mistakes; nothing was changed"):
        call_command("config", "validate", path, stderr=errors)
    with pytest.raises(CommandError, match="20 mistakes"):
        call_command("config", "apply", path, stderr=io.StringIO())

    problems = raised.value.problems
    assert len(problems) == 20, "\n".join(map(str, problems))
    assert {problem.path: problem.message for problem in problems}.keys() == EXPECTED.keys()
    for problem in problems:
        assert EXPECTED[problem.path] in problem.message, str(problem)
    assert errors.getvalue().splitlines() == [str(problem) for problem in problems]
    assert database_rows() == before


@pytest.mark.django_db
def test_a_valid_file_is_said_to_have_no_mistakes(config_file):
    path = config_file({"version": 1, "groups": [{"slug": "core", "name": {"en": "Core"}}]})
    out = io.StringIO()

    call_command("config", "validate", path, stdout=out)

    assert out.getvalue().strip() == f"{path}: no mistakes"


@pytest.mark.django_db
def test_a_file_that_is_not_yaml_or_uses_aliases_is_refused_with_its_line(config_file):
    for text, expected in (("version: [1", "line 1"), ("a: &x [1]\nb: *x\n", "aliases")):
        errors = io.StringIO()
        with pytest.raises(CommandError):
            call_command("config", "validate", config_file(text), stderr=errors)
        assert expected in errors.getvalue()


def test_a_file_nested_beyond_any_configuration_is_refused_not_crashed_on(config_file):
    errors = io.StringIO()
    with pytest.raises(CommandError):
        call_command("config", "validate", config_file("a: " + "[" * 50000 + "]" * 50000), stderr=errors)
    assert "nested too deeply" in errors.getvalue()
