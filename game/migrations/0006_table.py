"""One word for one thing: a room is a table (the word players see). The model, its foreign keys
and its permissions follow; the content type is renamed by Django itself."""

from django.conf import settings
from django.db import migrations, models


def rename_permissions(apps, schema_editor, old="room", new="table"):
    """The model's own permissions (view_room, ...) keep their groups (Moderators) under the new
    name. Django renames the content type next to RenameModel, so it says "table" whichever way
    this runs; other models' permissions (Report's close_table) are not the model's own."""
    Permission = apps.get_model("auth", "Permission")
    own = Permission.objects.filter(content_type__app_label="game", content_type__model="table")
    for permission in own.filter(codename__endswith=f"_{old}"):
        permission.codename = permission.codename[: -len(old)] + new
        permission.name = permission.name.replace(old, new)
        permission.save(update_fields=["codename", "name"])


def restore_permissions(apps, schema_editor):
    rename_permissions(apps, schema_editor, old="table", new="room")


class Migration(migrations.Migration):

    dependencies = [
        ('game', '0005_merge_0003_room_kind_and_rounds_0004_moderators_group'),
        ('auth', '0012_alter_user_first_name_max_length'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameModel(
            old_name='Room',
            new_name='Table',
        ),
        migrations.AlterModelOptions(
            name='seat',
            options={'ordering': ['table_id', 'index'], 'verbose_name': 'seat', 'verbose_name_plural': 'seats'},
        ),
        migrations.RemoveConstraint(
            model_name='game',
            name='one_game_number_per_room',
        ),
        migrations.RemoveConstraint(
            model_name='report',
            name='one_report_per_seat_and_reporter',
        ),
        migrations.RemoveConstraint(
            model_name='seat',
            name='one_player_per_seat',
        ),
        migrations.RemoveIndex(
            model_name='chatmessage',
            name='chat_of_room',
        ),
        migrations.RenameField(
            model_name='chatmessage',
            old_name='room',
            new_name='table',
        ),
        migrations.RenameField(
            model_name='game',
            old_name='room',
            new_name='table',
        ),
        migrations.RenameField(
            model_name='modaction',
            old_name='room_code',
            new_name='table_code',
        ),
        migrations.RenameField(
            model_name='presence',
            old_name='room',
            new_name='table',
        ),
        migrations.RenameField(
            model_name='report',
            old_name='room',
            new_name='table',
        ),
        migrations.RenameField(
            model_name='report',
            old_name='room_code',
            new_name='table_code',
        ),
        migrations.RenameField(
            model_name='sanction',
            old_name='room',
            new_name='table',
        ),
        migrations.RenameField(
            model_name='seat',
            old_name='room',
            new_name='table',
        ),
        migrations.AddIndex(
            model_name='chatmessage',
            index=models.Index(fields=['table', '-id'], name='chat_of_table'),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.UniqueConstraint(fields=('table', 'number'), name='one_game_number_per_table'),
        ),
        migrations.AddConstraint(
            model_name='report',
            constraint=models.UniqueConstraint(condition=models.Q(('message__isnull', True), ('table__isnull', False)), fields=('reporter_key', 'table', 'reported_key'), name='one_report_per_seat_and_reporter'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.UniqueConstraint(fields=('table', 'index'), name='one_player_per_seat'),
        ),
        migrations.RunPython(rename_permissions, restore_permissions),
    ]
