"""Static files as production serves them: compressed, under hashed names, cached for a year."""

from __future__ import annotations

from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client

MANIFEST = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


def test_collected_files_are_hashed_compressed_and_cached_long(settings, tmp_path):
    settings.STORAGES, settings.STATIC_ROOT, settings.WHITENOISE_USE_FINDERS = MANIFEST, tmp_path, False
    call_command("collectstatic", interactive=False, verbosity=0)
    url = static("sevn/sevn.js")
    assert url != "/static/sevn/sevn.js" and url.endswith(".js")
    assert (tmp_path / url.removeprefix("/static/")).with_suffix(".js.gz").exists()
    response = Client().get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200 and response["Content-Encoding"] == "gzip"
    assert "immutable" in response["Cache-Control"] and "max-age=315360000" in response["Cache-Control"]
    sheet = static("games/sevens.css")  # a game's look, collected from its folder (game.registry.static)
    assert sheet != "/static/games/sevens.css" and (tmp_path / sheet.removeprefix("/static/")).exists()
    assert Client().get(sheet).status_code == 200
