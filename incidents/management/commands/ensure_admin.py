"""Makes sure an admin account exists, and says how to log in."""

import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from incidents.roles import Role, assign_role


class Command(BaseCommand):
    help = "Create the 'admin' account with a random password if there is none."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="admin")

    def handle(self, *args, username, **options):
        User = get_user_model()
        if User.objects.filter(username=username).exists():
            self.stdout.write(
                f"user '{username}' (password set on the first run; to set a new one: "
                f".venv/bin/python manage.py changepassword {username})"
            )
            return
        password = secrets.token_urlsafe(12)
        user = User.objects.create_superuser(username=username, email="", password=password)
        assign_role(user, Role.ADMIN)
        self.stdout.write(
            f"user '{username}', password '{password}' (new account: the password is shown only now)"
        )
