"""Offline oracle for the reduction-family specs (V1_1 mean; V1_2 mean_float16,
reduce_sum, reduce_prod, reduce_max, reduce_min, reduce_any, reduce_all, argmax,
argmin, topk_v2).

Written from the operation definitions in the ops reference (docs/operations.md),
in plain Python
(one output element at a time over explicit index tuples, no numpy), and
independent of the reference driver and of the generator:

* an axes list names the axes to reduce; a negative axis counts from the end
  and a repeated axis is reduced once; keep_dims keeps each reduced axis as
  size 1, otherwise it disappears (all of them gone: the specs declare [1]);
* MEAN is the exact arithmetic mean (``fractions.Fraction``), SUM and PROD the
  exact sum and product, MAX/MIN the extreme, ANY/ALL the disjunction and
  conjunction of nonzero bytes (written as 1/0);
* ARGMAX/ARGMIN: the position along ``axis`` of the first largest / smallest
  value (ties to the lowest index);
* TOPK_V2: per last-axis row, the k largest values from the largest down;
  among equal values the one at the larger position comes first.

The data below is the data of the specs. Run ``python reduction_oracle.py``
and paste what it prints into the specs.
"""

from __future__ import annotations

import itertools
import math
import struct
from fractions import Fraction
from functools import reduce

# A {2, 3, 2} tensor of multiples of 0.5 (exact in float16, and in quant8 at scale 0.5 or 0.125).
A = [1.0, -2.0, 3.0, 0.5, -1.0, 4.5, 2.5, 6.0, -3.5, 1.0, 0.0, -0.5]
A_SHAPE = (2, 3, 2)
# A {1, 2, 2, 2} tensor (an NHWC image) for rank-4 reductions.
B = [1.0, 2.0, 3.0, -4.0, 5.5, 0.5, -1.5, 2.5]
B_SHAPE = (1, 2, 2, 2)
# A {4} vector.
V = [3.0, -1.5, 0.5, 2.0]
# A {2, 3, 2} tensor whose products have few significant bits (exact in float16).
P = [1.5, -2.0, 0.5, 4.0, -1.0, 3.0, 2.0, 0.25, -0.5, 2.5, 1.0, -4.0]
# {2, 3, 2} BOOL8 tensors (1 = true) of the REDUCE_ANY and REDUCE_ALL specs, and
# their {1, 2, 2, 2} and {4} companions.
D_ANY = [0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0]
D_ANY_4 = [0, 0, 0, 0, 0, 1, 0, 0]
D_ANY_V = [0, 0, 1, 0]
D_ALL = [1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1]
D_ALL_4 = [1, 1, 1, 1, 1, 0, 1, 1]
D_ALL_V = [1, 0, 1, 1]
# A {2, 3, 2} tensor of integers with ties along every axis (ARGMAX/ARGMIN).
E = [2.0, -1.0, 5.0, -1.0, 5.0, 3.0, 0.0, 4.0, 0.0, 4.0, -3.0, 4.0]
# A {2, 5} tensor with ties in each row (TOPK_V2).
T = [3.0, 1.0, 4.0, 1.0, 5.0, -2.0, 6.0, -2.0, 6.0, 0.0]
# A {2, 2, 3} tensor (TOPK_V2 on rank 3).
T3 = [1.0, 0.0, 2.0, 5.0, 5.0, -1.0, -2.0, -3.0, -2.0, 4.0, 7.0, 6.0]


def indices(shape: tuple[int, ...]):
    return itertools.product(*(range(n) for n in shape))


def flat(shape: tuple[int, ...], index: tuple[int, ...]) -> int:
    position = 0
    for size, i in zip(shape, index, strict=True):
        position = position * size + i
    return position


def reduce_axes(values, shape, axes, keep, combine):
    """(output shape, output values) of reducing ``axes`` with ``combine(list)``."""
    rank = len(shape)
    chosen = sorted({a + rank if a < 0 else a for a in axes})
    assert all(0 <= a < rank for a in chosen)
    kept = [a for a in range(rank) if a not in chosen]
    out_shape = tuple(1 if a in chosen else shape[a] for a in range(rank) if keep or a in kept)
    results = []
    for outer in indices(tuple(shape[a] for a in kept)):
        group = []
        for inner in indices(tuple(shape[a] for a in chosen)):
            index = [0] * rank
            for a, i in zip(kept, outer, strict=True):
                index[a] = i
            for a, i in zip(chosen, inner, strict=True):
                index[a] = i
            group.append(values[flat(shape, tuple(index))])
        results.append(combine(group))
    return out_shape or (1,), results


def mean(group):
    return float(sum(Fraction(x) for x in group) / len(group))


def total(group):
    return float(sum(Fraction(x) for x in group))


def product(group):
    return float(reduce(lambda a, b: a * b, (Fraction(x) for x in group), Fraction(1)))


def product_float16(group):
    """Android 11's float16 REDUCE_PROD, folded left to right in half precision: a factor
    of 0 on either side gives 0 (so 0 x inf is 0, not NaN); otherwise each partial product
    rounds to float16 (above 65504 it is inf). Plain Python: half precision emulated by
    struct's 'e' format."""
    running = 1.0
    for x in group:
        if running == 0 or x == 0:
            running = 0.0
            continue
        try:
            running = _half(running * x)
        except OverflowError:
            running = math.copysign(math.inf, running * x)
    return running


def _half(value):
    return struct.unpack("<e", struct.pack("<e", value))[0]


# {3, 3} float16 rows for Android 11's zero rule: 300 x 300 overflows to inf before
# the 0; an inf input before the 0; no 0 at all.
Z = [300.0, 300.0, 0.0, math.inf, 0.5, 0.0, 2.0, -1.5, 4.0]


def any_true(group):
    return 1 if any(x != 0 for x in group) else 0


def all_true(group):
    return 1 if all(x != 0 for x in group) else 0


def arg_extreme(values, shape, axis, better):
    """Index along ``axis`` of the first element no other beats (``better(a, b)``: a wins)."""
    rank = len(shape)
    axis = axis + rank if axis < 0 else axis
    rest = shape[:axis] + shape[axis + 1 :]
    out = []
    for outer in indices(rest):
        best = None
        for i in range(shape[axis]):
            x = values[flat(shape, (*outer[:axis], i, *outer[axis:]))]
            if best is None or better(x, best[0]):
                best = (x, i)
        out.append(best[1])
    return rest or (1,), out


def topk(values, shape, k):
    row = shape[-1]
    out_values, out_indices = [], []
    for start in range(0, len(values), row):
        pairs = [(values[start + i], i) for i in range(row)]
        chosen = []
        for _ in range(k):
            # the largest value; among equals, the largest position
            best = max((p for p in pairs if p not in chosen), key=lambda p: (p[0], p[1]))
            chosen.append(best)
        out_values += [v for v, _ in chosen]
        out_indices += [i for _, i in chosen]
    return (*shape[:-1], k), out_values, out_indices


AXIS_CASES = [
    # (name, shape, axes, keep)
    ("axis1", A_SHAPE, [1], False),
    ("negative_keep", A_SHAPE, [-1, 0], True),
    ("duplicates", A_SHAPE, [0, 2, -3], False),
    ("all_axes", A_SHAPE, [2, 1, 0], False),
    ("axis2_keep", A_SHAPE, [2], True),
    ("spatial", B_SHAPE, [1, 2], True),
    ("channels", B_SHAPE, [-1, 3], False),
    ("vector", (4,), [-1], False),
]

# Per operation: the data of each rank (3, 4, 1) and the combining function.
AXIS_OPERATIONS = [
    ("MEAN", (A, B, V), mean),
    ("REDUCE_SUM", (A, B, V), total),
    ("REDUCE_MAX", (A, B, V), max),
    ("REDUCE_MIN", (A, B, V), min),
    ("REDUCE_PROD", (P, B, V), product),
    ("REDUCE_ANY", (D_ANY, D_ANY_4, D_ANY_V), any_true),
    ("REDUCE_ALL", (D_ALL, D_ALL_4, D_ALL_V), all_true),
]


def main() -> None:
    for title, (rank3, rank4, rank1), combine in AXIS_OPERATIONS:
        print(f"# {title}")
        for name, shape, axes, keep in AXIS_CASES:
            values = {3: rank3, 4: rank4, 1: rank1}[len(shape)]
            print(f"{name}: {reduce_axes(values, shape, axes, keep, combine)}")
    print("# REDUCE_PROD float16, Android 11's zero rule")
    print(f"rows_of_Z: {reduce_axes(Z, (3, 3), [1], False, product_float16)}")
    print("# ARGMAX / ARGMIN")
    for name, values, shape, axis in (
        ("ties", E, A_SHAPE, 1),
        ("vector (ARGMAX data)", [3.0, -1.5, 0.5, 2.0, 3.0], (5,), 0),
        ("vector (ARGMIN data)", [3.0, -1.5, 0.5, -1.5, 3.0], (5,), 0),
        ("channels", B, B_SHAPE, 3),
    ):
        print(f"ARGMAX {name}: {arg_extreme(values, shape, axis, lambda a, b: a > b)}")
        print(f"ARGMIN {name}: {arg_extreme(values, shape, axis, lambda a, b: a < b)}")
    print("# TOPK_V2")
    for name, values, shape, k in (
        ("k3", T, (2, 5), 3),
        ("k1", T, (2, 5), 1),
        ("k_last_dim", T, (2, 5), 5),
        ("vector", V, (4,), 2),
        ("rank3", T3, (2, 2, 3), 2),
    ):
        print(f"{name}: {topk(values, shape, k)}")


# Spec outputs not computed here (derived by hand in the spec), skipped by --check.
HAND_DERIVED = {
    ("V1_2/reduce_min.mod.py", "out8"): "by hand",
    ("V1_2/topk_v2.mod.py", "values5"): "TENSOR_INT32 extremes, by hand",
}


if __name__ == "__main__":
    from speccheck import main_with_check

    if not main_with_check(__file__, main, HAND_DERIVED):
        main()
