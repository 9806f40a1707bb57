"""The only inline script our pages carry, and its hash for the Content-Security-Policy.

It sets the visitor's chosen theme (localStorage `theme`: "light" or "dark") on <html> before the
first paint, so a dark page never flashes white. Everything else a page runs lives in static/js/.
The policy allows this exact text by its SHA-256 (settings SECURE_CSP), computed here from the
same string the template prints, so the two cannot drift apart.
"""

import base64
import hashlib

THEME_BOOT = (
    'try{var t=localStorage.getItem("theme");'
    'if(t==="light"||t==="dark")document.documentElement.setAttribute("data-theme",t)}catch(e){}'
)


def csp_hash(script: str) -> str:
    """The CSP source expression that allows an inline <script> whose text is exactly `script`."""
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


THEME_BOOT_HASH = csp_hash(THEME_BOOT)
