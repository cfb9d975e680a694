"""The native-level re-read of every language (nl and de Sevens pages, nl, pl and fr rules):
every rulebook row reloaded from the content files as they now are."""

from django.db import migrations


def fill(apps, schema_editor):
    from rules.content.load import fill_models

    fill_models(*(apps.get_model("rules", name) for name in ("Section", "Blurb", "DemoStep", "EdgeCase", "GlossaryEntry")))


class Migration(migrations.Migration):
    dependencies = [("rules", "0008_words_review")]
    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
