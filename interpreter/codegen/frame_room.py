"""Room behind a large generated frame on CPython's frame stack.

CPython (3.11 to 3.13) keeps the frames of Python calls in chunks of 16 KiB on a
per-thread stack.  A frame that does not fit in what is left of the current chunk starts
a new chunk, sized to hold it and at least 1,000 words more, and that chunk is freed
(unmapped) when the frame returns.  A fused playout's frame holds every temporary of the
whole playout (a rulebook game's may hold 1,500 locals, 14 KiB).  Where the caller's
stack left just enough of the current chunk for it, the playout's frame fills the chunk
to its end, and every call the playout makes (a comprehension, a board walk, a memo)
maps and unmaps a chunk of its own: such a playout ran four times slower under
`python -m` than from a script, only because the stack below it was a few frames
shallower (docs/compiled.md has the measurements).

A frame larger than a chunk never fits in what is left of one, so it always starts its
own chunk, with the 1,000 words of room behind it.  `padded` makes a playout's frame that
large, by names assigned only in a branch that never runs (Python gives every name a
function assigns a slot in its frame).  The chunk is then mapped and unmapped once per
call of the playout, about 50 µs on the development VM: nothing beside a game of 60 ms,
but a tenth of a game of 1.5 ms.  So only frames of 8 KiB and more are padded; a smaller
frame meets the trouble only under a caller whose stack fills 8 KiB or more of a chunk.
"""
from __future__ import annotations

import types

from .safe_source import code_of

CHUNK_WORDS = 16 * 1024 // 8  # CPython's DATA_STACK_CHUNK_SIZE, in words
PAD_FROM_WORDS = 1024  # frames of 8 KiB and more are made larger than a chunk
_FRAME_HEADER_WORDS = 10  # a frame's own fields before its locals (7 in 3.11), rounded up
_NAMES_PER_LINE = 40


def frame_words(code: types.CodeType) -> int:
    """About how many words a call of `code` takes on the frame stack."""
    return (code.co_nlocals + len(code.co_cellvars) + len(code.co_freevars) + code.co_stacksize
            + _FRAME_HEADER_WORDS)


def padded(text: str, name: str) -> str:
    """`text` (a module defining the function `name`), its function given a frame larger
    than a stack chunk when its frame is between PAD_FROM_WORDS and a chunk."""
    words = frame_words(code_of(text, name))
    if not PAD_FROM_WORDS <= words <= CHUNK_WORDS:
        return text
    names = [f"_room{i}" for i in range(CHUNK_WORDS - words + _FRAME_HEADER_WORDS + 16)]
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(f"def {name}(")) + 1
    room = ["    if False:  # frame slots only: a frame larger than a stack chunk (codegen/frame_room.py)"]
    room += ["        " + " = ".join(names[i:i + _NAMES_PER_LINE]) + " = None"
             for i in range(0, len(names), _NAMES_PER_LINE)]
    return "\n".join(lines[:at] + room + lines[at:])
