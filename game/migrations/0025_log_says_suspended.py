"""The moderators' log names an account's suspension and reinstatement as such: they were logged
as "Banned from tables" and "Lifted a mute or ban" (with the right words only in the details), and
a moderator reading the "what" column took a suspension for a table ban. Rows logged so far are
renamed by their details."""

from django.db import migrations, models

RENAMED = (("ban", "account_suspended", "suspend"), ("lift", "account_reinstated", "restore"))


def rename(apps, schema_editor):
    ModAction = apps.get_model("game", "ModAction")
    for old, code, new in RENAMED:
        ModAction.objects.filter(action=old, detail__contains=f'"code": "{code}"').update(action=new)


def rename_back(apps, schema_editor):
    ModAction = apps.get_model("game", "ModAction")
    for old, _code, new in RENAMED:
        ModAction.objects.filter(action=new).update(action=old)


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0024_moderators_see_game_results"),
    ]

    operations = [
        migrations.AlterField(
            model_name="modaction",
            name="action",
            field=models.CharField(
                choices=[
                    ("warn", "Warned"),
                    ("mute", "Muted in chat"),
                    ("ban", "Banned from tables"),
                    ("lift", "Lifted a mute or ban"),
                    ("suspend", "Suspended an account"),
                    ("restore", "Reinstated an account"),
                    ("remove", "Removed from a table"),
                    ("rename", "Renamed"),
                    ("close", "Closed a table"),
                    ("handle", "Marked a report handled"),
                ],
                db_index=True,
                max_length=8,
                verbose_name="what",
            ),
        ),
        migrations.RunPython(rename, rename_back),
    ]
