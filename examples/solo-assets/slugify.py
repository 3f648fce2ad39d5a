import re
import unicodedata


def slugify(text: str, separator: str = "-") -> str:
    """Turn a title into a lowercase, URL-safe slug.

    Accents are folded to ASCII ("Crème brûlée" -> "creme-brulee"), every run of
    characters that is not a letter or digit becomes one separator, and separators
    are trimmed from both ends.

    Args:
        text: The title or phrase to convert.
        separator: What joins the words (default "-").

    Returns:
        The slug; an empty string when the text has no letters or digits.
    """
    ascii_text = (
        unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    )
    words = re.split(r"[^a-z0-9]+", ascii_text.lower())
    return separator.join(word for word in words if word)
