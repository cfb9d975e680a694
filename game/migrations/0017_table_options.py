"""Each game's table settings are its Kind's (issue 36): one JSON field, `Table.options`, holds what
the table's Kind checked, instead of a column per setting of each game. SEVN's target score and
bust odds and Sevens' rounds move into it, each table's for its own game, and their columns go.
The game's choices are the registry's (a callable: a new game needs no migration)."""

import game.models
import game.registry
from django.db import migrations, models

# Which of the old columns were whose (as they were when this migration was written).
COLUMNS = {"sevn": ("target", "show_odds"), "sevens": ("rounds",)}
DEFAULTS = {"target": 250, "show_odds": True, "rounds": 3}


def into_options(apps, schema_editor):
    Table = apps.get_model("game", "Table")
    for kind, columns in COLUMNS.items():
        for table in Table.objects.filter(kind=kind).only("id", *columns).iterator():
            options = {column: getattr(table, column) for column in columns}
            Table.objects.filter(id=table.id).update(options=options)


def out_of_options(apps, schema_editor):
    Table = apps.get_model("game", "Table")
    for table in Table.objects.only("id", "options").iterator():
        values = {column: (table.options or {}).get(column, default) for column, default in DEFAULTS.items()}
        Table.objects.filter(id=table.id).update(**values)


class Migration(migrations.Migration):
    dependencies = [("game", "0016_rating_flags")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="options",
            field=models.JSONField(blank=True, default=dict, verbose_name="game settings"),
        ),
        migrations.RunPython(into_options, out_of_options),
        migrations.RemoveField(model_name="table", name="target"),
        migrations.RemoveField(model_name="table", name="rounds"),
        migrations.RemoveField(model_name="table", name="show_odds"),
        migrations.AlterField(
            model_name="table",
            name="kind",
            field=models.CharField(
                choices=game.registry.choices, default=game.models.default_kind, max_length=8, verbose_name="game"
            ),
        ),
    ]
