"""The "Moderators" group: they handle reports, warn, mute, rename and remove players; they
cannot ban, close tables or open games (whose state is a running game's secret)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

MODERATORS = "Moderators"
PERMISSIONS = [
    "view_report", "handle_report", "warn_player", "mute_player", "remove_player", "rename_player",
    "view_chatmessage", "view_sanction", "view_modaction", "view_room", "view_seat",
]


def create_group(apps, schema_editor):
    for app_config in apps.get_app_configs():  # the permissions exist only after post_migrate otherwise
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=MODERATORS)
    group.permissions.set(Permission.objects.filter(content_type__app_label="game", codename__in=PERMISSIONS))


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=MODERATORS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0003_chat_and_moderation"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
