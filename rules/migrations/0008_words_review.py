"""The wording review of items 11-17 (the Sevens names in fr and pl, no article before a card in
de and fr, French spacing, one word per idea) and the glossary's definitions: every rulebook row
reloaded from the content files as they now are."""

from django.db import migrations


def fill(apps, schema_editor):
    from rules.content.load import fill_models

    fill_models(*(apps.get_model("rules", name) for name in ("Section", "Blurb", "DemoStep", "EdgeCase", "GlossaryEntry")))


class Migration(migrations.Migration):
    dependencies = [("rules", "0007_glossary_definition")]
    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
