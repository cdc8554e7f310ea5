"""Files damaged as a failing disk or a broken installation leaves them."""

from __future__ import annotations

from pathlib import Path


def flip_one_byte(path: Path, offset: int) -> None:
    """Inverts every bit of the byte at ``offset``: same size, other content."""
    with path.open("r+b") as file:
        file.seek(offset)
        byte = file.read(1)
        file.seek(offset)
        file.write(bytes([byte[0] ^ 0xFF]))
