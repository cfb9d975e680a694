"""The December 2026 review of the translations (issue 38): the German glossary's "round" reads
"Von der ersten ausgeteilten Karte an, bis …". Every rulebook row reloaded from the content files
as they now are."""

from django.db import migrations


def fill(apps, schema_editor):
    from rules.content.load import fill_models, fill_sevens

    fill_models(*(apps.get_model("rules", name) for name in ("Section", "Blurb", "DemoStep", "EdgeCase", "GlossaryEntry")))
    fill_sevens(apps.get_model("rules", "Section"), apps.get_model("rules", "Blurb"))


class Migration(migrations.Migration):
    dependencies = [("rules", "0009_native_reread")]
    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
