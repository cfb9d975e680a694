"""Each game's rulebook is its own (issue 36): its prose files are in its folder, a section's page
is any registered game's page (choices from the registry: a new game needs no migration), and
which version of a game's files its rows hold is kept, so that a game's new files reach its rows
without a migration of this app. The rows the earlier migrations loaded are the files as they
are now: each listed game's current version is recorded as loaded."""

from django.db import migrations, models

import rules.models


def record(apps, schema_editor):
    from game import registry

    LoadedRulebook = apps.get_model("rules", "LoadedRulebook")
    for kind in registry.KINDS.values():
        if kind.rulebook is not None:
            LoadedRulebook.objects.update_or_create(game=kind.name, defaults={"version": kind.rulebook.version})


class Migration(migrations.Migration):
    dependencies = [("rules", "0009_native_reread")]

    operations = [
        migrations.AlterField(
            model_name="section",
            name="page",
            field=models.CharField(choices=rules.models.pages, max_length=10, verbose_name="page"),
        ),
        migrations.CreateModel(
            name="LoadedRulebook",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("game", models.CharField(max_length=8, unique=True, verbose_name="game")),
                ("version", models.PositiveIntegerField(verbose_name="version")),
            ],
            options={"verbose_name": "loaded rulebook", "verbose_name_plural": "loaded rulebooks"},
        ),
        migrations.RunPython(record, migrations.RunPython.noop),
    ]
