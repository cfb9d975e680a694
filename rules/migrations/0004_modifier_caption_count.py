"""The modifier cards' caption names how many plus cards there are (from the engine)."""

from django.db import migrations


def fill(apps, schema_editor):
    from rules.content.load import fill_models

    fill_models(*(apps.get_model("rules", name) for name in
                  ("Section", "Blurb", "DemoStep", "EdgeCase", "GlossaryEntry")))


class Migration(migrations.Migration):
    dependencies = [("rules", "0003_rulebook_native_review")]
    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
