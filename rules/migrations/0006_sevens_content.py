"""Fill the Sevens page in all five languages, so a fresh database shows its whole rulebook (the
loader now reads every game's prose from its own folder, so this loads every game's rows again)."""

from django.db import migrations


def fill(apps, schema_editor):
    from rules.content.load import fill_models

    fill_models(*(apps.get_model("rules", name) for name in
                  ("Section", "Blurb", "DemoStep", "EdgeCase", "GlossaryEntry")))


class Migration(migrations.Migration):
    dependencies = [("rules", "0005_section_page_sevens")]
    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
