"""What every channel returns for each delivery it tried."""

from dataclasses import dataclass

from incidents.models import Delivery


@dataclass(frozen=True)
class Result:
    delivery: Delivery
    error: str = ""
    # A permanent failure (an address that does not exist, a receiver answering 4xx) is not retried.
    permanent: bool = False

    @property
    def ok(self) -> bool:
        return not self.error
