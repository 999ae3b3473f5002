"""The state's generator: SplitMix64, fully specified, so that a seed and a list of moves
replay a game exactly on any machine."""
from hypothesis import given, strategies as st

from meeple.interpreter.runtime import rng


def test_splitmix64_gives_its_published_first_outputs():
    # SplitMix64 from state 0 (the reference C implementation's first outputs).
    state, first = rng.next_u64(0)
    state, second = rng.next_u64(state)
    assert (first, second) == (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4)


@given(st.integers(0, (1 << 64) - 1), st.integers(0, 300))
def test_a_shuffle_is_fisher_yates_drawing_with_below_from_the_end(state, n):
    """shuffled() writes the generator out in its loop, and for a long deck works all
    its numbers out at once with numpy: both must give exactly the deck and the state
    that drawing with below() gives."""
    expected, s = list(range(n)), state
    for i in range(n - 1, 0, -1):
        s, j = rng.below(s, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert rng.shuffled(state, tuple(range(n))) == (s, tuple(expected))


@given(st.integers(0, (1 << 64) - 1), st.integers(1, 10 ** 6))
def test_below_stays_in_range(state, n):
    after, value = rng.below(state, n)
    assert 0 <= value < n and after != state


def _unmix(z: int) -> int:
    """The generator state whose output is z: SplitMix64's mixing step run backwards."""
    def unshift(y, k):
        x = y
        for _ in range(64 // k + 1):
            x = y ^ (x >> k)
        return x
    z = unshift(z, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & rng.MASK
    z = unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & rng.MASK
    return unshift(z, 30)


def test_a_long_shuffle_whose_draw_is_rejected_for_bias_draws_again():
    """The first draw of a 24-card shuffle is below(24); 2**64 % 24 == 16, so an output of
    2**64 - 1 is rejected and drawn again.  A state made to give that output first."""
    state = (_unmix(rng.MASK) - rng.GOLDEN) & rng.MASK
    assert rng.next_u64(state)[1] == rng.MASK
    expected, s = list(range(24)), state
    for i in range(23, 0, -1):
        s, j = rng.below(s, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert rng._draws(state, 23) is None
    assert rng.shuffled(state, tuple(range(24))) == (s, tuple(expected))
