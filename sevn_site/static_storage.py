"""Where collectstatic writes the site's files: WhiteNoise's compressed manifest storage (hashed
names, cached for a year), which also rewrites the imports of the page's own ES modules to the
hashed names. The page's script is native modules importing one another by relative path
(static/sevn/sevn.js, static/sevn/js/): left as they are, the hashed sevn.js would import the
unhashed modules, served but under names whose content changes, each cached apart from the entry
that imports it. Django's `support_js_module_import_aggregation` would rewrite every collected
script's imports and fails collectstatic on django-htmx's extensions (hx-sse-2.js names an
"htmx" file that is not there), so its patterns apply to ours only (`sevn/*.js`). The import
graph has no cycles, which the rewriting needs (tests/pages/test_static_files.py checks both)."""

from __future__ import annotations

from django.contrib.staticfiles.storage import ManifestFilesMixin
from whitenoise.storage import CompressedManifestStaticFilesStorage

_ALL_SCRIPTS, MODULE_IMPORTS = ManifestFilesMixin._js_module_import_aggregation_patterns


class ModuleManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    patterns = (*CompressedManifestStaticFilesStorage.patterns, ("sevn/*.js", MODULE_IMPORTS))
