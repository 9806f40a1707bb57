"""Row ids read from query strings: ASCII digits of a size a database column holds."""

import re

# str.isdigit() also takes "²" and "٣", which the database lookup then fails to convert (a 500).
ROW_ID = re.compile(r"[0-9]{1,18}")


def is_row_id(raw: str | None) -> bool:
    return bool(raw) and ROW_ID.fullmatch(raw) is not None
