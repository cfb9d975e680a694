"""The rulebook prose after the native speakers' review (de, nl, pl, fr): the same rows, their
texts as the content files now have them."""

from django.db import migrations


def fill(apps, schema_editor):
    from rules.content.load import fill_models

    fill_models(*(apps.get_model("rules", name) for name in
                  ("Section", "Blurb", "DemoStep", "EdgeCase", "GlossaryEntry")))


class Migration(migrations.Migration):
    dependencies = [("rules", "0002_rulebook_content")]
    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
