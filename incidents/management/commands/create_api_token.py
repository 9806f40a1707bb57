"""Issues an API token from the command line (for automation set up before anyone logs in)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from incidents.models import TokenScope
from incidents.services.api_tokens import issue_token


class Command(BaseCommand):
    help = "Create an API token for a user and print its secret (shown once)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--name", default="command line")
        parser.add_argument("--scope", choices=TokenScope.values, default=TokenScope.READ)

    def handle(self, *args, username, name, scope, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user named {username!r}.")
        token, secret = issue_token(user, name=name, scope=scope, actor=None)
        self.stdout.write(f"Token {token.prefix}… ({token.get_scope_display()}) for {username}:")
        self.stdout.write(secret)
