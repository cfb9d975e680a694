"""Moderators see how each account's games ended (game.moderation.game_results): the record
behind a pause for leaving and behind "finished 28 of the last 30"."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

MODERATORS = "Moderators"


def grant(apps, schema_editor):
    for app_config in apps.get_app_configs():  # the permission exists only after post_migrate otherwise
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=MODERATORS)
    group.permissions.add(*Permission.objects.filter(content_type__app_label="game", codename="view_gameresult"))


def revoke(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    for group in apps.get_model("auth", "Group").objects.filter(name=MODERATORS):
        group.permissions.remove(*Permission.objects.filter(content_type__app_label="game", codename="view_gameresult"))


class Migration(migrations.Migration):
    dependencies = [("game", "0023_game_records")]

    operations = [migrations.RunPython(grant, revoke)]
