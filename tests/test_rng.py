"""The state's generator: SplitMix64, fully specified, so that a seed and a list of moves
replay a game exactly on any machine."""
from hypothesis import given, strategies as st

from meeple.interpreter import rng


def test_splitmix64_gives_its_published_first_outputs():
    # SplitMix64 from state 0 (the reference C implementation's first outputs).
    state, first = rng.next_u64(0)
    state, second = rng.next_u64(state)
    assert (first, second) == (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4)


@given(st.integers(0, (1 << 64) - 1), st.integers(0, 80))
def test_a_shuffle_is_fisher_yates_drawing_with_below_from_the_end(state, n):
    """shuffled() writes the generator out in its loop for speed: it must give exactly
    the deck and the state that drawing with below() gives."""
    expected, s = list(range(n)), state
    for i in range(n - 1, 0, -1):
        s, j = rng.below(s, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert rng.shuffled(state, tuple(range(n))) == (s, tuple(expected))


@given(st.integers(0, (1 << 64) - 1), st.integers(1, 10 ** 6))
def test_below_stays_in_range(state, n):
    after, value = rng.below(state, n)
    assert 0 <= value < n and after != state
