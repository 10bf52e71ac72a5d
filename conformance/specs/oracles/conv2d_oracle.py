"""Offline oracle for the CONV_2D spec's golden values (V1_2/conv2d_v1_2.mod.py).

Deliberately naive and independent of the reference driver and the generator:
plain Python loops over the definition of a VALID-padded, stride-1, NHWC 2-D
convolution, out[b, y, x, o] = bias[o] + sum_{i, j, c} in[b, y + i, x + j, c] *
filter[o, i, j, c]. Run it by hand (``python conformance/specs/oracles/conv2d_oracle.py``)
and paste what it prints into the spec.
"""

INPUT_SHAPE = (1, 3, 3, 2)  # N, H, W, C
FILTER_SHAPE = (2, 2, 2, 2)  # O, FH, FW, C

INPUT = [0.5 * (k + 1) for k in range(18)]  # 0.5, 1.0, ..., 9.0
FILTER = [
    # output channel 0: multiples of 0.5
    1.0,
    -0.5,
    0.5,
    0.0,
    -1.0,
    1.5,
    0.5,
    -0.5,
    # output channel 1: multiples of 0.25
    0.25,
    0.5,
    -0.25,
    0.75,
    0.0,
    -0.5,
    1.0,
    0.25,
]
BIAS = [1.0, -0.5]


def at(values, shape, *index):
    flat = 0
    for size, i in zip(shape, index, strict=True):
        flat = flat * size + i
    return values[flat]


def conv2d_valid():
    n, h, w, c = INPUT_SHAPE
    o, fh, fw, _ = FILTER_SHAPE
    out = []
    for b in range(n):
        for y in range(h - fh + 1):
            for x in range(w - fw + 1):
                for k in range(o):
                    total = BIAS[k]
                    for i in range(fh):
                        for j in range(fw):
                            for ch in range(c):
                                total += at(INPUT, INPUT_SHAPE, b, y + i, x + j, ch) * at(
                                    FILTER, FILTER_SHAPE, k, i, j, ch
                                )
                    out.append(total)
    return out


def main():
    print(conv2d_valid())


# Spec outputs not computed here (derived by hand in the spec), skipped by --check.
HAND_DERIVED: dict[tuple[str, str], str] = {}


if __name__ == "__main__":
    from speccheck import main_with_check

    if not main_with_check(__file__, main, HAND_DERIVED):
        main()
