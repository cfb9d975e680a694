"""Rating flags (#35 item 5): patterns in rated games that farm ratings, for moderators, who may
see them (view_ratingflag) and mark them handled (with handle_report, as reports). And the rated
games that were left by all their people before a deadline was set for that (services.play.
ABANDONED_AFTER) get it now: they waited with none, for good."""

from datetime import timedelta

import django.db.models.deletion
from django.conf import settings
from django.contrib.auth.management import create_permissions
from django.db import migrations, models
from django.db.models import Exists, OuterRef
from django.utils import timezone

ABANDONED_AFTER = timedelta(minutes=5)  # services.play's, as it was when this migration was written


MODERATORS = "Moderators"


def grant(apps, schema_editor):
    for app_config in apps.get_app_configs():  # the permission exists only after post_migrate otherwise
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=MODERATORS)
    group.permissions.add(*Permission.objects.filter(content_type__app_label="game", codename="view_ratingflag"))


def abandoned_get_a_deadline(apps, schema_editor):
    """Running rated games with no deadline and no person in them who is not away."""
    Game = apps.get_model("game", "Game")
    Seat = apps.get_model("game", "Seat")
    here = Seat.objects.filter(table_id=OuterRef("table_id"), bot_level="", away=False)
    waiting = Game.objects.filter(over=False, deadline__isnull=True, table__rated=True, table__status="playing")
    waiting.exclude(Exists(here)).update(deadline=timezone.now() + ABANDONED_AFTER)


def revoke(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    for group in apps.get_model("auth", "Group").objects.filter(name=MODERATORS):
        group.permissions.remove(*Permission.objects.filter(content_type__app_label="game", codename="view_ratingflag"))


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0015_ban_out"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="RatingFlag",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("leaving", "Leaves rated games again and again"),
                            ("onesided", "Always loses rated games to the same account"),
                        ],
                        db_index=True,
                        max_length=8,
                        verbose_name="pattern",
                    ),
                ),
                ("game_kind", models.CharField(max_length=8, verbose_name="game")),
                ("games", models.JSONField(default=list, verbose_name="games")),
                ("count", models.PositiveIntegerField(default=0, verbose_name="number of games")),
                (
                    "status",
                    models.CharField(
                        choices=[("open", "Open"), ("handled", "Handled")],
                        db_index=True,
                        default="open",
                        max_length=8,
                        verbose_name="status",
                    ),
                ),
                ("created", models.DateTimeField(auto_now_add=True, db_index=True, verbose_name="flagged")),
                ("updated", models.DateTimeField(auto_now=True, verbose_name="last game")),
                ("handled_at", models.DateTimeField(blank=True, null=True, verbose_name="handled")),
                (
                    "handled_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="handled by",
                    ),
                ),
                (
                    "other",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="always behind this account",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rating_flags",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="account",
                    ),
                ),
            ],
            options={
                "verbose_name": "rating flag",
                "verbose_name_plural": "rating flags",
                "ordering": ["-status", "-updated"],
            },
        ),
        migrations.RunPython(grant, revoke),
        migrations.RunPython(abandoned_get_a_deadline, migrations.RunPython.noop),
    ]
