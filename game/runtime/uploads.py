"""How large a request body the site takes, by path: the one place the limits are written.

The server process refuses a body over its limit from its Content-Length, or once that many bytes
have come when there is none, before anything reads it (sevn_site.bodies); nginx lets through the
same numbers (deploy/nginx/sevn.conf, a test compares them). A record for /verify/ may be 4 MB (the
largest real records measured 107 KB and 412 KB); every other request is a form of a few fields.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

RECORD_MAX_BYTES = 4 * 1024 * 1024  # a game record uploaded to /verify/ (the page says "up to 4 MB")
FORM_ALLOWANCE_BYTES = 64 * 1024  # the rest of the upload's form: its framing, the CSRF token, the link
VERIFY_BODY_MAX_BYTES = RECORD_MAX_BYTES + FORM_ALLOWANCE_BYTES  # nginx: client_max_body_size 4160k
BODY_MAX_BYTES = 64 * 1024  # any other request (nginx: client_max_body_size 64k)
VERIFY_PATH = re.compile(r"/[a-z]{2}(?:-[a-z0-9]+)?/verify/")  # the page in each language


def body_limit(path: str) -> int:
    """The most bytes a request's body to this path may have."""
    return VERIFY_BODY_MAX_BYTES if VERIFY_PATH.fullmatch(path) else BODY_MAX_BYTES


def too_large(path: str) -> str:
    """Why a body over its limit is refused, in the language of the path's prefix."""
    with translation.override(translation.get_language_from_path(path) or settings.LANGUAGE_CODE):
        if VERIFY_PATH.fullmatch(path):
            return gettext(
                "That file is too large to be a game record: records up to %(max)s MB are accepted here."
            ) % {"max": RECORD_MAX_BYTES // (1024 * 1024)}
        return gettext("That request is too large: at most %(max)s KB can be sent here.") % {
            "max": BODY_MAX_BYTES // 1024
        }
