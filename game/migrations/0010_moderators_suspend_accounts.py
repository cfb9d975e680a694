"""Moderators may suspend and reinstate accounts (a permission of its own: banning from tables
stays with staff who hold ban_player)."""

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
    group.permissions.add(*Permission.objects.filter(content_type__app_label="game", codename="suspend_account"))


def revoke(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    for group in apps.get_model("auth", "Group").objects.filter(name=MODERATORS):
        group.permissions.remove(*Permission.objects.filter(content_type__app_label="game", codename="suspend_account"))


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0009_accounts_friends_invitations"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="profile",
            options={
                "permissions": [("suspend_account", "Can suspend and reinstate accounts")],
                "verbose_name": "profile",
                "verbose_name_plural": "profiles",
            },
        ),
        migrations.RunPython(grant, revoke),
    ]
