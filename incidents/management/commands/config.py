"""manage.py config export|validate|diff|apply: the configuration as one YAML file (docs/configuration.md)."""

import os
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from incidents.configuration.applying import apply_configuration, preview_configuration
from incidents.configuration.checking import check_document
from incidents.configuration.document import DocumentError, parse_yaml, to_yaml
from incidents.configuration.export import export_document
from incidents.editor.audit_text import change_text


class Command(BaseCommand):
    help = (
        "Configuration as code: export it to a YAML file, validate a file, show what applying it "
        "would change, or apply it in one transaction."
    )

    def add_arguments(self, parser):
        commands = parser.add_subparsers(dest="action", required=True)
        export = commands.add_parser("export", help="Write the configuration as YAML.")
        export.add_argument("--output", "-o", help="The file to write (default: standard output).")
        validate = commands.add_parser("validate", help="Report every mistake in a file.")
        validate.add_argument("file", help="A YAML file, or - for standard input.")
        for name, text in (("diff", "Say what applying a file would change."), ("apply", "Apply a file.")):
            command = commands.add_parser(name, help=text)
            command.add_argument("file", help="A YAML file, or - for standard input.")
            command.add_argument(
                "--prune",
                action="store_true",
                help="Remove what the file's sections do not list (otherwise it is kept and reported).",
            )

    def handle(self, *args, action: str, **options):
        try:
            getattr(self, f"handle_{action}")(**options)
        except DocumentError as error:
            for problem in error.problems:
                self.stderr.write(str(problem))
            count = len(error.problems)
            raise CommandError(f"{count} mistake{'s' if count != 1 else ''}; nothing was changed.") from None

    def handle_export(self, *, output: str | None, **options):
        text = to_yaml(export_document())
        if output:
            Path(output).write_text(text, encoding="utf-8")
        else:
            self.stdout.write(text, ending="")

    def handle_validate(self, *, file: str, **options):
        check_document(_read(file), environ=os.environ)
        self.stdout.write(f"{file}: no mistakes")

    def handle_diff(self, *, file: str, prune: bool, **options):
        plan = preview_configuration(_read(file), environ=os.environ, prune=prune)
        for change in plan.changes:
            self.stdout.write(change_text(change.as_dict()))
        count = len(plan.writes)
        self.stdout.write(
            f"{count} change{'s' if count != 1 else ''} would be applied" if count else "no changes"
        )

    def handle_apply(self, *, file: str, prune: bool, **options):
        applied = apply_configuration(_read(file), actor=None, environ=os.environ, prune=prune)
        for change in applied.plan.changes:
            self.stdout.write(change_text(change.as_dict()))
        for key, token in applied.push_tokens.items():
            self.stdout.write(f'push token of probe "{key}" (shown once): {token}')
        count = len(applied.plan.writes)
        self.stdout.write(f"{count} change{'s' if count != 1 else ''} applied" if count else "no changes")


def _read(file: str) -> object:
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    except OSError as error:
        raise CommandError(f"{file}: {error.strerror}") from None
    return parse_yaml(text)
