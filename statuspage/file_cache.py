"""The embedded cache (no Redis): Django's file cache, made cheaper for pages already gzipped."""

import pickle
import time
import zlib

from django.core.cache.backends.filebased import FileBasedCache

# Listing the folder costs more than a write once a few hundred pages are kept.
CULL_EVERY_SECONDS = 5.0


class FileCache(FileBasedCache):
    """Compresses at zlib's fastest level (kept pages are gzip already; a second full pass only
    cost time) and culls at most every few seconds rather than listing the folder on each write."""

    _culled_at = 0.0

    def _write_content(self, file, timeout, value):
        file.write(pickle.dumps(self.get_backend_timeout(timeout), self.pickle_protocol))
        file.write(zlib.compress(pickle.dumps(value, self.pickle_protocol), 1))

    def _cull(self):
        now = time.monotonic()
        if now - self._culled_at < CULL_EVERY_SECONDS:
            return
        self._culled_at = now
        super()._cull()
