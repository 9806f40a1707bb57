"""The site's icon in the colour of a page indicator: a disc with a shape per indicator (a tick,
an exclamation mark, a clock for maintenance), so it is told apart without colour too."""

# Mid-tone colours that hold against both light and dark browser tab strips.
COLOURS = {
    "none": "#1f883d",
    "minor": "#bf8700",
    "major": "#e16f24",
    "critical": "#cf222e",
    "maintenance": "#0969da",
}
SHAPES = {
    "none": '<path d="M9.5 16.5l4.5 4.5 8.5-9" fill="none" stroke="#fff" stroke-width="3.5" '
    'stroke-linecap="round" stroke-linejoin="round"/>',
    "alert": '<path d="M16 8.5v9" stroke="#fff" stroke-width="3.5" stroke-linecap="round"/>'
    '<circle cx="16" cy="23" r="2.1" fill="#fff"/>',
    "maintenance": '<circle cx="16" cy="16" r="8" fill="none" stroke="#fff" stroke-width="2.5"/>'
    '<path d="M16 11v5.5l3.5 2" fill="none" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/>',
}


def favicon_svg(indicator: str) -> str:
    colour = COLOURS[indicator]
    shape = SHAPES.get(indicator, SHAPES["alert"])
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
        f'<circle cx="16" cy="16" r="15" fill="{colour}"/>{shape}</svg>'
    )
