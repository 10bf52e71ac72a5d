"""Offline oracle for the comparison-family specs (V1_2 equal, not_equal, greater,
greater_equal, less, less_equal, logical_and, logical_or, logical_not, select).

Written from the operation definitions in the ops reference (docs/operations.md),
in plain Python
(one element at a time, no numpy), independent of the reference driver and of
the generator:

* broadcasting: align shapes at the trailing dimension, a size-1 axis repeats;
* comparisons: quant8 operands compare their real values ``(q - zp) * scale``
  computed in float32 (each operand with its own parameters); other types
  compare their values as stored; the result is 1 or 0;
* LOGICAL_AND / LOGICAL_OR / LOGICAL_NOT: any nonzero byte is true;
* SELECT: ``cond ? a : b`` element by element; for quant8 the chosen value is
  requantized: ``clamp(round_half_away((q - zp_in) * s_in / s_out + zp_out), 0, 255)``.

The data below is the data of the specs. Run ``python comparison_oracle.py``
and paste what it prints into the specs.
"""

from __future__ import annotations

import math
import struct

INF = math.inf
NAN = math.nan


def f32(x: float) -> float:
    """``x`` rounded to the nearest float32."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def broadcast_shape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    rank = max(len(a), len(b))
    a = (1,) * (rank - len(a)) + a
    b = (1,) * (rank - len(b)) + b
    out = []
    for x, y in zip(a, b, strict=True):
        assert x == y or 1 in (x, y), (a, b)
        out.append(max(x, y))
    return tuple(out)


def pick(values: list, shape: tuple[int, ...], index: tuple[int, ...]):
    """The element of ``values`` (row-major, ``shape``) seen at broadcast ``index``."""
    index = index[len(index) - len(shape) :]
    flat = 0
    for size, i in zip(shape, index, strict=True):
        flat = flat * size + (0 if size == 1 else i)
    return values[flat]


def all_indexes(shape: tuple[int, ...]):
    if not shape:
        yield ()
        return
    for head in range(shape[0]):
        for rest in all_indexes(shape[1:]):
            yield (head, *rest)


def elementwise(fn, a, shape_a, b, shape_b):
    shape = broadcast_shape(shape_a, shape_b)
    return [fn(pick(a, shape_a, i), pick(b, shape_b, i)) for i in all_indexes(shape)]


def real(q: int, scale: float, zero_point: int) -> float:
    """Dequantized value as the CPU reference computes it: a float32 product."""
    return f32(float(q - zero_point) * f32(scale))


COMPARISONS = {
    "equal": lambda x, y: x == y,
    "not_equal": lambda x, y: x != y,
    "greater": lambda x, y: x > y,
    "greater_equal": lambda x, y: x >= y,
    "less": lambda x, y: x < y,
    "less_equal": lambda x, y: x <= y,
}

# Comparison data, shared by the six comparison specs:
# (a, shape_a, b, shape_b, quant_a, quant_b); quant = (scale, zero point) or None.
COMPARISON_CASES = {
    # float32 (and its relaxed / float16 / int32 / quant8 variations), rank 3 vs rank 1
    "broadcast_rank": (
        [-2.0, 3.0, 1.0, 4.0, 0.0, 2.0],
        (2, 1, 3),
        [-2.0, 0.0, 2.0],
        (3,),
        None,
        None,
    ),
    # size-1 axes on both sides: {2, 1} vs {1, 3} -> {2, 3}
    "broadcast_both": ([1.5, -0.5], (2, 1), [-0.5, 1.5, 0.25], (1, 3), None, None),
    # the quant8 variation of "broadcast_rank": a at 0.5/128, b at 0.25/100
    "broadcast_rank_quant8": (
        [124, 134, 130, 136, 128, 132],
        (2, 1, 3),
        [92, 100, 108],
        (3,),
        (0.5, 128),
        (0.25, 100),
    ),
    # raw quant8: a at scale 0.3 zp 10, b at scale 0.6 zp 200
    "quant8": (
        [8, 10, 12, 14, 255, 0],
        (6,),
        [199, 200, 201, 201, 0, 255],
        (6,),
        (0.3, 10),
        (0.6, 200),
    ),
    "int32": (
        [-2147483648, 2147483647, 0, -1, 7, -2147483648],
        (6,),
        [2147483647, 2147483647, -2147483648, 0, 7, -2147483648],
        (6,),
        None,
        None,
    ),
    "bool8": ([0, 1, 1, 0], (2, 2), [1, 0], (2,), None, None),
    "special": (
        [-0.0, INF, -INF, NAN, 1.0, NAN, INF],
        (7,),
        [0.0, INF, -3.0, 2.0, NAN, NAN, 65504.0],
        (7,),
        None,
        None,
    ),
}


def compare(op: str, case: str) -> list[int]:
    a, shape_a, b, shape_b, qa, qb = COMPARISON_CASES[case]
    if qa is not None:
        a = [real(q, *qa) for q in a]
        b = [real(q, *qb) for q in b]
    fn = COMPARISONS[op]
    return [int(fn(x, y)) for x, y in zip(*_expand(a, shape_a, b, shape_b), strict=True)]


def _expand(a, shape_a, b, shape_b):
    pairs = elementwise(lambda x, y: (x, y), a, shape_a, b, shape_b)
    return [p[0] for p in pairs], [p[1] for p in pairs]


LOGICAL_CASES = {
    # every combination: a {2, 2} against b {2}
    "broadcast": ([0, 1, 1, 0], (2, 2), [1, 0], (2,)),
    # {1, 2, 3} against {2, 1, 1} -> {2, 2, 3}
    "rank3": ([1, 0, 1, 0, 0, 1], (1, 2, 3), [1, 0], (2, 1, 1)),
}
NOT_CASES = {"rank2": [1, 0, 0, 1, 1, 0], "rank1": [0]}


def logical(op: str, case: str) -> list[int]:
    a, shape_a, b, shape_b = LOGICAL_CASES[case]
    fn = (lambda x, y: x != 0 and y != 0) if op == "and" else (lambda x, y: x != 0 or y != 0)
    return [int(v) for v in elementwise(fn, a, shape_a, b, shape_b)]


def round_half_away(x: float) -> int:
    return math.floor(abs(x) + 0.5) * (1 if x >= 0 else -1)


def requantize(q: int, source: tuple[float, int], target: tuple[float, int]) -> int:
    value = real(q, *source) / f32(target[0]) + target[1]
    return min(255, max(0, round_half_away(value)))


SELECT_CASES = {
    # (cond, a, b, quant_a, quant_b, quant_out)
    "mixed": (
        [1, 0, 0, 1, 1, 0],
        [1.5, -2.0, 0.5, -3.0, 4.0, 2.5],
        [-1.0, 3.0, -0.5, 2.0, 5.0, -4.0],
        None,
        None,
        None,
    ),
    # quant8 variation of "mixed": a at 0.25/128, b at 0.5/100, output at 0.5/120
    "mixed_quant8": (
        [1, 0, 0, 1, 1, 0],
        [134, 120, 130, 116, 144, 138],
        [98, 106, 99, 104, 110, 92],
        (0.25, 128),
        (0.5, 100),
        (0.5, 120),
    ),
    # raw quant8, rounding half away and saturating: a at 0.25/0, b at 2.0/50, out at 0.5/10
    "quant8": (
        [1, 1, 1, 1, 0, 0, 0, 0],
        [0, 1, 3, 255, 0, 0, 0, 0],
        [0, 0, 0, 0, 40, 50, 255, 47],
        (0.25, 0),
        (2.0, 50),
        (0.5, 10),
    ),
}


def select(case: str) -> list:
    cond, a, b, qa, qb, qo = SELECT_CASES[case]
    if qa is not None:
        a = [requantize(q, qa, qo) for q in a]
        b = [requantize(q, qb, qo) for q in b]
    return [x if c else y for c, x, y in zip(cond, a, b, strict=True)]


def main():
    for op in COMPARISONS:
        for case in COMPARISON_CASES:
            print(f"{op:14} {case:22} {compare(op, case)}")
    for op in ("and", "or"):
        for case in LOGICAL_CASES:
            print(f"logical_{op:6} {case:22} {logical(op, case)}")
    for case, values in NOT_CASES.items():
        print(f"logical_not    {case:22} {[int(v == 0) for v in values]}")
    for case in SELECT_CASES:
        print(f"select         {case:22} {select(case)}")


# Spec outputs not computed here (derived by hand in the spec), skipped by --check.
HAND_DERIVED = {
    ("V1_2/select.mod.py", "tout"): "float16 extremes chosen by hand",
    ("V1_2/select.mod.py", "fout"): "by hand",
    ("V1_2/select.mod.py", "iout"): "TENSOR_INT32 extremes, by hand",
}


if __name__ == "__main__":
    from speccheck import main_with_check

    if not main_with_check(__file__, main, HAND_DERIVED):
        main()
