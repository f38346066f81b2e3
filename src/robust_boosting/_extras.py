"""The packages of the optional extras, checked where they are needed, with an error that
names the extra to install."""

from __future__ import annotations

__all__ = ["PLOT_EXTRA", "require_matplotlib"]

#: the command that installs the ``plot`` extra (matplotlib)
PLOT_EXTRA = 'pip install "robust-boosting[plot]"'


def require_matplotlib(what: str, alternative: str = "") -> None:
    """Raise an ImportError naming the ``plot`` extra when matplotlib is not installed.

    Parameters
    ----------
    what : str
        Who needs it, the subject of the message (e.g. ``"robust-boosting plot"``).
    alternative : str, default=""
        A way to do without it, appended to the message (e.g. ``"pass --no-report"``).

    Raises
    ------
    ImportError
        With ``name="matplotlib"``, when ``import matplotlib`` fails.
    """
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        other = f", or {alternative}" if alternative else ""
        raise ImportError(f"{what} draws figures with matplotlib, which is not installed: "
                          f"{PLOT_EXTRA}{other}", name="matplotlib") from exc
