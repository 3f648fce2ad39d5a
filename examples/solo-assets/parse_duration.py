import re

_UNIT_SECONDS = {"d": 86_400, "h": 3_600, "m": 60, "s": 1}
_PART = re.compile(r"(\d+)\s*([dhms])")


def parse_duration(text: str) -> int:
    """Convert a human duration such as "1h 30m" or "2d4h" into seconds.

    Units are d (days), h (hours), m (minutes) and s (seconds); parts may be
    separated by spaces and appear in any order. A bare number is seconds.

    Args:
        text: The duration to parse.

    Returns:
        The total number of seconds.

    Raises:
        ValueError: If the text is empty or contains anything else.
    """
    compact = text.strip().lower()
    if compact.isdigit():
        return int(compact)
    if not compact or _PART.sub("", compact).strip():
        raise ValueError(f"not a duration: {text!r}")
    parts = _PART.findall(compact)
    return sum(int(amount) * _UNIT_SECONDS[unit] for amount, unit in parts)
