"""The rulebook gets a third page: Sevens."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("rules", "0004_modifier_caption_count")]
    operations = [
        migrations.AlterField(
            model_name="section",
            name="page",
            field=models.CharField(
                choices=[("tutorial", "SEVN in one minute"), ("full", "The full rules"), ("sevens", "Sevens")],
                max_length=10, verbose_name="page"),
        ),
    ]
