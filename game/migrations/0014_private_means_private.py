"""Games get a random public id for their links (/g/<id>/ and the record): the sequential
database id let anyone walk through every game. Existing games get one each."""

import secrets

from django.db import migrations, models

import game.models


def fill_public_ids(apps, schema_editor):
    Game = apps.get_model("game", "Game")
    for game_id in Game.objects.filter(public_id__isnull=True).values_list("id", flat=True).iterator():
        Game.objects.filter(id=game_id).update(public_id=secrets.token_urlsafe(16))  # as models.new_public_id


class Migration(migrations.Migration):

    dependencies = [
        ("game", "0013_presence_told"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="public_id",
            field=models.CharField(editable=False, max_length=32, null=True, verbose_name="public id"),
        ),
        migrations.RunPython(fill_public_ids, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="game",
            name="public_id",
            field=models.CharField(
                default=game.models.new_public_id, editable=False, max_length=32, unique=True, verbose_name="public id"
            ),
        ),
    ]
