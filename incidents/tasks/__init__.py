"""Celery tasks, one module per area. Tasks are thin: load rows, call a service, decide on retry.

Queues: `probes` (measurements only), `notify` (emails and webhooks), `default` (the rest).
Each module is imported here so Celery's autodiscovery registers its tasks.
"""

from . import (
    database,  # noqa: E402,F401  (issue 3: planner statistics)
    demo,  # noqa: E402,F401  (follow-up 9: live demo figures)
    maintenance,  # noqa: E402,F401  (issue 5)
    notify,  # noqa: E402, F401  (issue 6)
    probes,  # noqa: E402,F401  (issue 4)
    snapshot,  # noqa: E402, F401  (issue 8)
)
