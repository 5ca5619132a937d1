"""Version strings ("12.4", "6.4") as sortable keys, the one comparison every
map tool uses. A module of its own so that any tool can import it without
pulling in generate.py (targets.py imports generate, which imports legacy)."""


def vkey(v):
    return tuple(int(x) for x in str(v).split("."))
