from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def chunked(items: Sequence[T], size: int) -> list[list[T]]:
    """Split a sequence into consecutive batches of at most ``size`` items.

    The last batch holds the remainder and may be shorter; an empty sequence gives
    no batches. Useful for sending records to an API that limits batch sizes.

    Args:
        items: The sequence to split.
        size: The largest batch size; must be at least 1.

    Returns:
        The batches, in order.

    Raises:
        ValueError: If size is less than 1.
    """
    if size < 1:
        raise ValueError("size must be at least 1")
    return [list(items[start : start + size]) for start in range(0, len(items), size)]
