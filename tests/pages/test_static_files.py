"""Static files as production serves them: compressed, under hashed names, cached for a year;
the page's ES modules import one another under those hashed names too."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client

MANIFEST = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "sevn_site.static_storage.ModuleManifestStaticFilesStorage"},
}
HASHED = re.compile(r"\.[0-9a-f]{12}\.js$")
IMPORTED = re.compile(r"""(?:\bfrom|\bimport)\s*["'](\./[^"']+)["']""")


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


def test_collected_modules_import_each_other_by_hashed_name(settings, tmp_path):
    """From the hashed entry down, every import names a hashed module that was collected (a
    browser would otherwise load an unhashed copy cached apart from its importer), served as
    JavaScript, which a module script must be."""
    settings.STORAGES, settings.STATIC_ROOT, settings.WHITENOISE_USE_FINDERS = MANIFEST, tmp_path, False
    call_command("collectstatic", interactive=False, verbosity=0)
    entry = static("sevn/sevn.js").removeprefix("/static/")
    seen, todo = set(), [entry]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        assert HASHED.search(name), name
        response = Client().get(f"/static/{name}")
        assert response.status_code == 200
        assert response["Content-Type"].split(";")[0] in {"text/javascript", "application/javascript"}
        for imported in IMPORTED.findall((tmp_path / name).read_text()):
            todo.append(str(PurePosixPath(name).parent / imported.removeprefix("./")))
    modules = {path.name for path in (tmp_path / "sevn" / "js").glob("*.js") if not HASHED.search(path.name)}
    assert len(seen) == len(modules) + 1  # the entry and every module, each reached once
