"""Fill the rulebook in all five languages, so a fresh database shows the complete rules."""

from django.db import migrations


def fill(apps, schema_editor):
    from rules.content.load import fill_models

    fill_models(*(apps.get_model("rules", name) for name in
                  ("Section", "Blurb", "DemoStep", "EdgeCase", "GlossaryEntry")))


class Migration(migrations.Migration):
    dependencies = [("rules", "0001_initial")]
    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
