"""Why a backup or a restore did not happen, in words for the person who ran it."""


class BackupFailed(Exception):
    """The tool, the database or the file failed: nothing was written in its place."""


class RestoreRefused(BackupFailed):
    """The restore was not started: the file or the target database is not one to restore into."""
