"""A metric measured from several regions, region by region, as the component page shows it."""

from dataclasses import dataclass

from incidents.models import ComponentStatus, Metric
from incidents.selectors.regions import RegionFigure

from .presentation import metric_value


@dataclass(frozen=True)
class RegionLine:
    region: str
    latest: str  # "120 ms", "" without a value (a failed check)
    p95: str  # over the region's window
    status: ComponentStatus | None  # the region's own verdict; None while it does not report
    reporting: bool


def region_lines(metric: Metric, figures: list[RegionFigure], *, language: str) -> list[RegionLine]:
    """Each region's latest value, 95th percentile and verdict; a silent region says no data."""
    return [
        RegionLine(
            region=figure.region,
            latest=metric_value(metric, figure.latest, language) if figure.reporting else "",
            p95=metric_value(metric, figure.p95, language) if figure.reporting else "",
            status=figure.status if figure.reporting else None,
            reporting=figure.reporting,
        )
        for figure in figures
    ]
