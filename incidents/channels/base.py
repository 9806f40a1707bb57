"""What every channel returns for each delivery it tried."""

import datetime as dt
from dataclasses import dataclass

from incidents.models import Delivery


@dataclass(frozen=True)
class Result:
    delivery: Delivery
    error: str = ""
    # A permanent failure (an address that does not exist, a receiver answering 4xx) is not retried.
    permanent: bool = False
    # Not tried (its receiver's circuit is open): pending again from this time, no attempt spent.
    retry_at: dt.datetime | None = None

    @property
    def ok(self) -> bool:
        return not self.error
