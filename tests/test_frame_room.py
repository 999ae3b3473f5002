"""The room a large generated frame leaves behind it on CPython's frame stack
(codegen/frame_room.py): a playout's frame between 8 KiB and a chunk is made larger than
a chunk, so that it starts a chunk of its own and the calls it makes find room there."""
from __future__ import annotations

from meeple.interpreter import load_game
from meeple.interpreter.codegen.frame_room import CHUNK_WORDS, PAD_FROM_WORDS, frame_words, padded


def _function(locals_: int) -> str:
    body = "\n".join(f"    v{i} = x + {i}" for i in range(locals_))
    return f"def F(x):\n{body}\n    return v0 + v{locals_ - 1}\n"


def _made(text: str):
    ns: dict = {}
    exec(compile(text, "<test>", "exec"), ns)  # noqa: S102 - the test's own text
    return ns["F"]


def test_a_frame_between_8_kib_and_a_chunk_is_made_larger_than_a_chunk():
    text = _function(1200)
    before = _made(text)
    assert PAD_FROM_WORDS <= frame_words(before.__code__) <= CHUNK_WORDS
    after = _made(padded(text, "F"))
    assert frame_words(after.__code__) > CHUNK_WORDS
    assert after(5) == before(5) == 5 + 5 + 1199


def test_small_frames_and_frames_larger_than_a_chunk_are_left_alone():
    small, large = _function(20), _function(CHUNK_WORDS + 50)
    assert padded(small, "F") == small
    assert padded(large, "F") == large


def test_freyas_follys_fused_playout_has_a_frame_larger_than_a_chunk():
    game = load_game("freyas-folly", 3, backend="compiled")
    run, _ = game.rules.playout_kernel(False, 3)
    assert frame_words(run.__code__) > CHUNK_WORDS
    shorter = load_game("treasure-hunter", 2, backend="compiled")  # short games: left alone
    assert frame_words(shorter.rules.playout_kernel(False, 2)[0].__code__) < PAD_FROM_WORDS
