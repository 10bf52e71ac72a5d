"""Offline oracle for the vendor-extension spec (V1_2 demo_saturating_add).

Written from the definition of ``org.nnhal_conformance.demo:SATURATING_ADD`` in
plain Python (one element at a time, no numpy), independent of the reference
driver and of the generator: each TENSOR_Q16 element is a raw signed 16-bit
integer (Q8.8: real value = raw / 256); the sum of two elements is taken on the
raw integers, without overflow, then clamped to [-32768, 32767].

The data below is the data of the spec. Run ``python extension_oracle.py`` and
paste what it prints into the spec.
"""

from __future__ import annotations

INT16_MIN = -(2**15)
INT16_MAX = 2**15 - 1


def saturating_add(a: list[int], b: list[int]) -> list[int]:
    assert len(a) == len(b), "no broadcasting: both inputs have one shape"
    result = []
    for x, y in zip(a, b, strict=True):
        assert INT16_MIN <= x <= INT16_MAX and INT16_MIN <= y <= INT16_MAX
        total = x + y
        result.append(min(INT16_MAX, max(INT16_MIN, total)))
    return result


CASES = {
    "plain_and_both_ends": ([256, 32000, -32000, -1], [384, 1000, -1000, 1]),
    "at_the_limits": ([32767, -32768, 32767, -32768], [1, -1, 0, 0]),
}
CHAIN = (
    [30000, -30000, 10, 16384, -16384, 0],  # x
    [3000, -3000, 20, 16384, -16385, -7],  # y
    [-1000, 1000, 30, -32767, 32767, 7],  # k, the constant
)


def main():
    for name, (a, b) in CASES.items():
        print(f"saturating_add {name:22} {saturating_add(a, b)}")
    x, y, k = CHAIN
    t = saturating_add(x, y)
    print(f"saturating_add {'chain_t':22} {t}")
    print(f"saturating_add {'chain_z':22} {saturating_add(t, k)}")


# Spec outputs not computed here (derived by hand in the spec), skipped by --check.
HAND_DERIVED: dict[tuple[str, str], str] = {}


if __name__ == "__main__":
    from speccheck import main_with_check

    if not main_with_check(__file__, main, HAND_DERIVED):
        main()
