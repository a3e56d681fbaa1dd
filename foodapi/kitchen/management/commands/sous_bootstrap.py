"""manage.py sous_bootstrap --username sous [--token TOKEN] [--seed-demo]

Prepares the API for the sous pantry service: the service user and its DRF
token (printed alone on stdout, so `TOKEN=$(manage.py sous_bootstrap ...)`
works), and optionally the demo kitchen. Safe to run on every start.
"""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from rest_framework.authtoken.models import Token

from kitchen.demo import seed_demo

# DRF's Token.key column is 40 characters.
TOKEN_MAX_LENGTH = 40
# Shortest token accepted from --token; shorter ones are guessable.
TOKEN_MIN_LENGTH = 20


class Command(BaseCommand):
    help = "Create or reuse the API user, set its token (printed on stdout), optionally seed demo data."

    def add_arguments(self, parser):
        parser.add_argument("--username", required=True, help="user the token belongs to (e.g. sous)")
        parser.add_argument(
            "--token",
            help=f"use this token ({TOKEN_MIN_LENGTH}-{TOKEN_MAX_LENGTH} characters) instead of a generated one",
        )
        parser.add_argument("--seed-demo", action="store_true", help="add the demo pantry and recipes if missing")

    def handle(self, *args, **options):
        username = options["username"].strip()
        if not username:
            raise CommandError("--username must not be empty.")
        wanted = options.get("token")
        if wanted is not None:
            wanted = wanted.strip()
            if not TOKEN_MIN_LENGTH <= len(wanted) <= TOKEN_MAX_LENGTH or not wanted.isprintable() or " " in wanted:
                raise CommandError(
                    f"--token must be {TOKEN_MIN_LENGTH}-{TOKEN_MAX_LENGTH} printable characters without spaces."
                )

        with transaction.atomic():
            user_model = get_user_model()
            user, created = user_model.objects.get_or_create(**{user_model.USERNAME_FIELD: username})
            if created:
                user.set_unusable_password()  # token only; no admin login
                user.save()
                self.stderr.write(f"created user {username}")
            if wanted is not None:
                other = Token.objects.filter(key=wanted).exclude(user=user).first()
                if other is not None:
                    raise CommandError("That token already belongs to another user.")
                token = Token.objects.filter(user=user).first()
                if token is None or token.key != wanted:
                    Token.objects.filter(user=user).delete()
                    token = Token.objects.create(user=user, key=wanted)
            else:
                token, _ = Token.objects.get_or_create(user=user)

            if options["seed_demo"]:
                counts = seed_demo()
                summary = ", ".join(f"{n} {what}" for what, n in counts.items())
                self.stderr.write(f"demo data: created {summary}")

        self.stdout.write(token.key)
