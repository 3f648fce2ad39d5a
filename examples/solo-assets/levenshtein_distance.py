def levenshtein_distance(a: str, b: str) -> int:
    """Count the single-character edits that turn one string into another.

    Insertions, deletions and substitutions each cost one (the Levenshtein
    distance), so "kitten" and "sitting" are 3 apart. Runs in O(len(a) * len(b))
    time and O(min(len(a), len(b))) memory.

    Args:
        a: The first string.
        b: The second string.

    Returns:
        The edit distance, 0 when the strings are equal.
    """
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i]
        for j, char_b in enumerate(b, start=1):
            cost = 0 if char_a == char_b else 1
            insert, delete = current[j - 1] + 1, previous[j] + 1
            current.append(min(insert, delete, previous[j - 1] + cost))
        previous = current
    return previous[-1]
