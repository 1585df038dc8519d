"""Translation of every text a player sees (gettext; English is the source)."""


def _(message: str) -> str:
    return message
