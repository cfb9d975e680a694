"""Fill the Sevens page in all five languages, so a fresh database shows its whole rulebook."""

from django.db import migrations


def fill(apps, schema_editor):
    from rules.content.load import fill_sevens

    fill_sevens(apps.get_model("rules", "Section"), apps.get_model("rules", "Blurb"))


class Migration(migrations.Migration):
    dependencies = [("rules", "0005_section_page_sevens")]
    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
