"""Catalog data for operations 0-47 (ADD ... DETECTION_POSTPROCESSING).

Source: ../shared/ops/ops-00-47.md and vts-catalog.md section 4.3. Each
entry lists every accepted form with its first HAL version.
"""

from __future__ import annotations

from hal.catalog.build import (
    BOOL,
    F16,
    F32,
    I32,
    I32T,
    Q8A,
    Q8C,
    V1_0,
    V1_2,
    bias_scale,
    channel_dim,
    entry,
    optional_tail,
    output_scale_exceeds_product,
    per_type,
    with_constraints,
)
from hal.types import OperationType as Op

_ARITH = {F32: V1_0, Q8A: V1_0, F16: V1_2}


def _binary(t: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return (t, t, I32), (t,)


def _conv_types(t: int) -> tuple[int, int]:
    """(filter, bias) types for a CONV-like input type."""
    return (t, I32T) if t == Q8A else (t, t)


def _conv_2d() -> list:
    def implicit(t):
        f, b = _conv_types(t)
        return (t, f, b, I32, I32, I32, I32), (t,)

    def explicit(t):
        f, b = _conv_types(t)
        return (t, f, b, *(I32,) * 7), (t,)

    def per_channel(n_scalars):
        return lambda t: ((Q8A, Q8C, I32T, *(I32,) * n_scalars), (Q8A,))

    layout_dilation = (((BOOL,), V1_2, "layout"), ((I32, I32), V1_2, "dilation"))
    rank4 = ((0, 4, 4), (1, 4, 4), (2, 1, 1))
    scale_rule = output_scale_exceeds_product(0, 1, before=V1_2)
    plain = per_type(Op.CONV_2D, _ARITH, implicit, form="implicit", ranks=rank4) + per_type(
        Op.CONV_2D, _ARITH, explicit, form="explicit", ranks=rank4
    )
    channel = per_type(
        Op.CONV_2D, {Q8C: V1_2}, per_channel(4), form="implicit", ranks=rank4
    ) + per_type(Op.CONV_2D, {Q8C: V1_2}, per_channel(7), form="explicit", ranks=rank4)
    return with_constraints(
        optional_tail(plain + channel, *layout_dilation),
        scale_rule,
        bias_scale(),
        channel_dim(1, 0),
    )


ENTRIES = {
    Op.ADD: entry(Op.ADD, V1_0, per_type(Op.ADD, _ARITH, _binary, ranks=((0, 0, 4), (1, 0, 4)))),
    Op.MUL: entry(
        Op.MUL,
        V1_0,
        with_constraints(
            per_type(Op.MUL, _ARITH, _binary, ranks=((0, 0, 4), (1, 0, 4))),
            output_scale_exceeds_product(0, 1),
        ),
    ),
    Op.CONV_2D: entry(Op.CONV_2D, V1_0, _conv_2d()),
}
