"""Offline oracle for the conversion specs (V1_2/cast, V1_2/quantize,
V1_0/dequantize, V1_1/dequantize_relaxed, V1_2/dequantize_v1_2).

Written from the definitions in the ops reference (docs/operations.md), in plain
Python (one
element at a time; float32 and float16 rounding through ``struct``),
independent of the reference driver and of the generator:

* CAST converts the stored value as C++ does: to quant8, clamp to [0, 255]
  then truncate; to int32, truncate toward zero; to float32 / float16, round to
  nearest (float16 overflowing to infinity). Quantization parameters are ignored.
* QUANTIZE: ``clamp(zp + round_half_away(x / scale), 0, 255)``, the division
  in float32.
* DEQUANTIZE: ``scale * (q - zp)`` as a float32 product (per channel: the
  channel's scale), then rounded to the output type.

The data below is the data of the specs. Run ``python conversion_oracle.py``
and paste what it prints into the specs.
"""

from __future__ import annotations

import math
import struct

INF = math.inf


def f32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", float(x)))[0]


def f16(x: float) -> float:
    """``x`` rounded to the nearest float16 (ties to even); beyond the range: infinity."""
    try:
        return struct.unpack("<e", struct.pack("<e", float(x)))[0]
    except OverflowError:
        return math.copysign(INF, x)


def round_half_away(x: float) -> int:
    return math.floor(abs(x) + 0.5) * (1 if x >= 0 else -1)


def cast(x: float, target: str) -> float | int:
    if target == "quant8":
        return int(min(255.0, max(0.0, x)))  # int() truncates toward zero
    if target == "int32":
        return int(x)
    if target == "float32":
        return f32(x)
    return f16(x)


CAST_DATA = {
    # source -> stored values (every float value exact in float16)
    "float16": [-300.5, -1.75, -0.5, 0.0, 0.75, 1.5, 100.25, 255.5, 256.0, 1000.0],
    "float32": [-300.5, -1.75, -0.5, 0.0, 0.75, 1.5, 100.25, 255.5, 256.0, 1000.0],
    "int32": [-70000, -300, -1, 0, 1, 100, 255, 256, 2049, 70000],
    "quant8": [0, 1, 127, 128, 200, 255],
    # float32 values beyond float16's range or precision
    "float32_large": [-70000.0, 65519.0, 70000.0, 1000000000.0],
}
TARGETS = ("float16", "float32", "int32", "quant8")


def quantize(x: float, scale: float, zero_point: int) -> int:
    q = zero_point + round_half_away(f32(f32(x) / f32(scale)))
    return min(255, max(0, q))


QUANTIZE_DATA = {
    # (values, scale, zero point)
    "zp128": ([-64.0, -1.25, -0.75, -0.25, 0.0, 0.25, 0.75, 1.25, 63.5, 64.0], 0.5, 128),
    "scale_0_1": ([-1.0, -0.26, 0.0, 0.04, 0.05, 0.33, 1.0, 12.3, 24.5, 30.0], 0.1, 10),
    "zp0": ([-3.0, -1.0, 0.0, 1.0, 2.9, 3.0, 509.0, 510.0, 511.0, 1000.0], 2.0, 0),
}


def dequantize(q: int, scale: float, zero_point: int) -> float:
    return f32(float(q - zero_point) * f32(scale))


DEQUANTIZE_DATA = {
    # (values, scale, zero point)
    "zp127": ([0, 1, 126, 127, 128, 254, 255, 200], 0.5, 127),
    "zp0": ([0, 1, 2, 100, 254, 255], 2.0, 0),
    "zp255": ([0, 100, 254, 255], 0.25, 255),
    "scale_0_1": ([0, 9, 10, 11, 20, 110, 255, 3], 0.1, 10),
    "symm": ([-128, -127, -1, 0, 1, 64, 127, -64], 0.25, 0),
    "overflow_f16": ([0, 1, 218, 219, 255, 10], 300.0, 0),
}

# Per channel: (values row-major, shape, channelDim, scales)
PER_CHANNEL_DATA = {
    "channel_dim_1": ([-4, 2, -8, 8, 127, -128], (2, 3), 1, [0.5, 0.25, 2.0]),
    "channel_dim_0": (
        [1, -1, 2, -2, 10, 20, 30, 40, -127, 127, 3, -3],
        (3, 2, 2),
        0,
        [0.125, 1.5, 4.0],
    ),
}


def per_channel(values, shape, channel_dim, scales) -> list[float]:
    stride = 1
    for size in shape[channel_dim + 1 :]:
        stride *= size
    return [
        dequantize(q, scales[(i // stride) % shape[channel_dim]], 0) for i, q in enumerate(values)
    ]


def main():
    for source, values in CAST_DATA.items():
        for target in TARGETS:
            print(f"cast {source:14} -> {target:8} {[cast(v, target) for v in values]}")
    for name, (values, scale, zp) in QUANTIZE_DATA.items():
        print(f"quantize {name:10} {[quantize(v, scale, zp) for v in values]}")
    for name, (values, scale, zp) in DEQUANTIZE_DATA.items():
        reals = [dequantize(q, scale, zp) for q in values]
        print(f"dequantize {name:13} float32 {reals}")
        print(f"dequantize {name:13} float16 {[f16(r) for r in reals]}")
    for name, data in PER_CHANNEL_DATA.items():
        reals = per_channel(*data)
        print(f"dequantize {name:13} float32 {reals}")
        print(f"dequantize {name:13} float16 {[f16(r) for r in reals]}")


# Spec outputs not computed here (derived by hand in the spec), skipped by --check.
HAND_DERIVED: dict[tuple[str, str], str] = {}


if __name__ == "__main__":
    from speccheck import main_with_check

    if not main_with_check(__file__, main, HAND_DERIVED):
        main()
