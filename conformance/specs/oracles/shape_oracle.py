"""Offline oracle for the shape-operation specs' golden values.

Plain Python, written from the definitions in the ops reference
(docs/operations.md; element by
element over output indices, no numpy reshapes or transposes), independent of
the reference driver and of the generator. Each function takes a flat
row-major list and its shape and returns (flat output, output shape). Run
``python conformance/specs/oracles/shape_oracle.py`` and paste what a case
prints into the spec that names it.
"""

from __future__ import annotations

import itertools
import math


def indices(shape):
    """Every index tuple of ``shape`` in row-major order."""
    return itertools.product(*[range(d) for d in shape])


def offset(index, shape):
    """Row-major position of ``index`` in ``shape``."""
    position = 0
    for i, d in zip(index, shape, strict=True):
        position = position * d + i
    return position


def reshape_dims(count, target):
    if -1 not in target:
        return list(target)
    known = math.prod(d for d in target if d != -1)
    return [count // known if d == -1 else d for d in target]


def transpose(values, shape, perm):
    out_shape = [shape[p] for p in perm]
    out = []
    for index in indices(out_shape):
        source = [0] * len(shape)
        for k, p in enumerate(perm):
            source[p] = index[k]
        out.append(values[offset(source, shape)])
    return out, out_shape


def concatenation(parts, axis):
    """``parts``: list of (values, shape)."""
    out_shape = list(parts[0][1])
    out_shape[axis] = sum(shape[axis] for _, shape in parts)
    out = []
    for index in indices(out_shape):
        position = index[axis]
        for values, shape in parts:
            if position < shape[axis]:
                source = list(index)
                source[axis] = position
                out.append(values[offset(source, shape)])
                break
            position -= shape[axis]
    return out, out_shape


def split(values, shape, axis, count):
    size = shape[axis] // count
    results = []
    for k in range(count):
        out_shape = list(shape)
        out_shape[axis] = size
        out = []
        for index in indices(out_shape):
            source = list(index)
            source[axis] += k * size
            out.append(values[offset(source, shape)])
        results.append((out, out_shape))
    return results


def slice_(values, shape, begin, size):
    out_shape = [d - b if s == -1 else s for d, b, s in zip(shape, begin, size, strict=True)]
    out = [
        values[offset([i + b for i, b in zip(index, begin, strict=True)], shape)]
        for index in indices(out_shape)
    ]
    return out, out_shape


def _resolve(value, masked, dim, stride, is_end):
    """A strided-slice begin/end per the per-axis rules of docs/operations.md,
    STRIDED_SLICE (35)."""
    if stride > 0:
        if masked:
            return dim if is_end else 0
        if value >= dim:
            return dim
        if value < -dim:
            return 0
        return value + dim if value < 0 else value
    if masked:
        return -1 if is_end else dim - 1
    if value < -dim:
        return -1
    if value >= dim:
        return dim - 1
    return value + dim if value < 0 else value


def strided_slice(values, shape, begin, end, strides, begin_mask, end_mask, shrink_mask):
    picks = []
    for axis, dim in enumerate(shape):
        s = strides[axis]
        b = _resolve(begin[axis], begin_mask >> axis & 1, dim, s, False)
        e = _resolve(end[axis], end_mask >> axis & 1, dim, s, True)
        chosen = []
        i = b
        while (s > 0 and i < e) or (s < 0 and i > e):
            chosen.append(i)
            i += s
        if shrink_mask >> axis & 1:
            assert len(chosen) == 1, (axis, chosen)
        picks.append(chosen)
    out = [values[offset(index, shape)] for index in itertools.product(*picks)]
    out_shape = [len(p) for axis, p in enumerate(picks) if not shrink_mask >> axis & 1]
    return out, out_shape or [1]  # every axis shrunk: shape [1] (Android 11), not rank 0


def squeeze(values, shape, axes):
    """Drop the listed axes (each of size 1; negative counts from the end), or every axis
    of size 1 when ``axes`` is None or empty. A result of rank 0 has shape [1] (Android
    11). The values keep their row-major order."""
    rank = len(shape)
    if axes:
        chosen = {a + rank if a < 0 else a for a in axes}
        assert all(shape[a] == 1 for a in chosen), (shape, axes)
    else:
        chosen = {a for a in range(rank) if shape[a] == 1}
    out_shape = [d for a, d in enumerate(shape) if a not in chosen]
    return list(values), out_shape or [1]


def tile(values, shape, multiples):
    out_shape = [d * m for d, m in zip(shape, multiples, strict=True)]
    out = [
        values[offset([i % d for i, d in zip(index, shape, strict=True)], shape)]
        for index in indices(out_shape)
    ]
    return out, out_shape


def gather(values, shape, axis, idx_values, idx_shape):
    out_shape = list(shape[:axis]) + list(idx_shape) + list(shape[axis + 1 :])
    k = len(idx_shape)
    out = []
    for index in indices(out_shape):
        outer, inner, rest = index[:axis], index[axis : axis + k], index[axis + k :]
        chosen = idx_values[offset(inner, idx_shape)]
        out.append(values[offset([*outer, chosen, *rest], shape)])
    return out, out_shape


def pad(values, shape, paddings, fill):
    out_shape = [b + d + a for d, (b, a) in zip(shape, paddings, strict=True)]
    out = []
    for index in indices(out_shape):
        source = [i - b for i, (b, _) in zip(index, paddings, strict=True)]
        inside = all(0 <= s < d for s, d in zip(source, shape, strict=True))
        out.append(values[offset(source, shape)] if inside else fill)
    return out, out_shape


def space_to_depth(values, shape, b):
    n, h, w, c = shape
    out_shape = [n, h // b, w // b, c * b * b]
    out = []
    for bn, y, x, z in indices(out_shape):
        block, ch = divmod(z, c)
        i, j = divmod(block, b)
        out.append(values[offset([bn, y * b + i, x * b + j, ch], shape)])
    return out, out_shape


def depth_to_space(values, shape, b):
    n, h, w, c = shape
    depth = c // (b * b)
    out_shape = [n, h * b, w * b, depth]
    out = []
    for bn, y, x, ch in indices(out_shape):
        (yy, i), (xx, j) = divmod(y, b), divmod(x, b)
        out.append(values[offset([bn, yy, xx, (i * b + j) * depth + ch], shape)])
    return out, out_shape


def space_to_batch(values, shape, block, paddings, fill):
    padded, padded_shape = pad(values, shape, [(0, 0), *paddings, (0, 0)], fill)
    n, h, w, c = padded_shape
    bh, bw = block
    out_shape = [n * bh * bw, h // bh, w // bw, c]
    out = []
    for bb, y, x, ch in indices(out_shape):
        block_index, bn = divmod(bb, n)
        i, j = divmod(block_index, bw)
        out.append(padded[offset([bn, y * bh + i, x * bw + j, ch], padded_shape)])
    return out, out_shape


def batch_to_space(values, shape, block):
    b, h, w, c = shape
    bh, bw = block
    n = b // (bh * bw)
    out_shape = [n, h * bh, w * bw, c]
    out = []
    for bn, y, x, ch in indices(out_shape):
        (yy, i), (xx, j) = divmod(y, bh), divmod(x, bw)
        out.append(values[offset([(i * bw + j) * n + bn, yy, xx, ch], shape)])
    return out, out_shape


def channel_shuffle(values, shape, groups, axis):
    size = shape[axis] // groups
    out = []
    for index in indices(shape):
        k, g = divmod(index[axis], groups)  # output position k*G + g
        source = list(index)
        source[axis] = g * size + k
        out.append(values[offset(source, shape)])
    return out, list(shape)


def halves(count, start=0.0):
    """``count`` values start, start+0.5, ...: exact in float16 and at quant8 scale 0.5."""
    return [start + 0.5 * k for k in range(count)]


def show(name, result):
    values, shape = result
    print(f"{name}: shape {shape}\n  {values}")


def main():
    x24 = halves(24, -6.0)  # -6.0 .. 5.5
    show("transpose 2x3x4 perm [2,0,1]", transpose(x24, [2, 3, 4], [2, 0, 1]))
    show("transpose 2x3 omitted", transpose(halves(6, 1.0), [2, 3], [1, 0]))
    show("transpose 1x2x3x2 perm [0,3,1,2]", transpose(halves(12), [1, 2, 3, 2], [0, 3, 1, 2]))
    show(
        "concatenation axis 1",
        concatenation([(halves(4), [2, 2]), (halves(6, 10.0), [2, 3])], 1),
    )
    show(
        "concatenation axis 0 three",
        concatenation(
            [([1.0, 2.0], [1, 2]), ([3.0, 4.0, 5.0, 6.0], [2, 2]), ([7.0, 8.0], [1, 2])], 0
        ),
    )
    for k, part in enumerate(split(halves(12, -3.0), [2, 6], 1, 3)):
        show(f"split 2x6 axis 1 into 3, output {k}", part)
    for k, part in enumerate(split(halves(12, -3.0), [2, 3, 2], 0, 2)):
        show(f"split 2x3x2 axis -3 into 2, output {k}", part)
    show("slice 3x4 begin [1,1] size [2,-1]", slice_(halves(12), [3, 4], [1, 1], [2, -1]))
    show(
        "slice 2x3x2 begin [0,1,1] size [2,2,1]",
        slice_(halves(12), [2, 3, 2], [0, 1, 1], [2, 2, 1]),
    )
    x12 = halves(12, 1.0)
    show(
        "strided 3x4 begin [0,-1] end [3,0] strides [2,-1]",
        strided_slice(x12, [3, 4], [0, -1], [3, 0], [2, -1], 0, 0, 0),
    )
    show(
        "strided 3x4 masks begin 1 end 2 shrink 0",
        strided_slice(x12, [3, 4], [5, 1], [-1, 9], [1, 1], 1, 2, 0),
    )
    show(
        "strided 3x4 shrink axis 0 begin [1,-3] end [2,9] strides [1,2]",
        strided_slice(x12, [3, 4], [1, -3], [2, 9], [1, 2], 0, 0, 1),
    )
    show(
        "strided 3x4 negative all masked",
        strided_slice(x12, [3, 4], [0, 0], [0, 0], [-1, -3], 3, 3, 0),
    )
    show(
        "strided 2x3x2 shrink 5",
        strided_slice(halves(12), [2, 3, 2], [-1, 0, 1], [2, 3, 2], [1, 2, 1], 0, 0, 5),
    )
    # Results that would have rank 0 have shape [1] (docs/operations.md, Android 11's
    # corrections): V1_1/rank0_as_shape1, V1_2/rank0_as_shape1_v1_2.
    show("rank0 squeeze 1x1 axes [0,-1]", squeeze([-3.5], [1, 1], [0, -1]))
    show("rank0 squeeze 1 axes [0]", squeeze([27.5], [1], [0]))
    show("rank0 squeeze 1x1x1x1 axes omitted", squeeze([-49.5], [1, 1, 1, 1], None))
    show(
        "rank0 strided 2x3 shrink 3 begin [1,-2] end [2,2]",
        strided_slice(halves(6, 1.0), [2, 3], [1, -2], [2, 2], [1, 1], 0, 0, 3),
    )
    show(
        "rank0 strided 4 shrink 1 begin -1 end 4",
        strided_slice([-2.0, 0.5, 9.0, -7.5], [4], [-1], [4], [1], 0, 0, 1),
    )
    show(
        "rank0 strided 1x2x1x3 shrink 15 begin [0,1,0,2] end [1,2,1,3] strides [1,1,1,2]",
        strided_slice(
            halves(6, -1.0), [1, 2, 1, 3], [0, 1, 0, 2], [1, 2, 1, 3], [1, 1, 1, 2], 0, 0, 15
        ),
    )
    show("tile 2x3 [2,1]", tile(halves(6, -1.0), [2, 3], [2, 1]))
    show("tile 1x2x2 [1,3,2]", tile([1.0, 2.0, 3.0, 4.0], [1, 2, 2], [1, 3, 2]))
    show("gather 3x2 axis 0 [2,0,2]", gather(halves(6, 1.0), [3, 2], 0, [2, 0, 2], [3]))
    show(
        "gather 2x3 axis -1 [[1,0],[2,2]]",
        gather(halves(6, -1.0), [2, 3], 1, [1, 0, 2, 2], [2, 2]),
    )
    show("pad 2x3 [[1,0],[0,2]]", pad(halves(6, 1.0), [2, 3], [(1, 0), (0, 2)], 0.0))
    show(
        "pad 1x2x2x1 all dims",
        pad([1.0, 2.0, 3.0, 4.0], [1, 2, 2, 1], [(0, 1), (1, 0), (0, 1), (1, 1)], 0.0),
    )
    show("pad_v2 2x2 value -1.5", pad([1.0, 2.0, 3.0, 4.0], [2, 2], [(0, 1), (2, 0)], -1.5))
    show("pad_v2 3 value 9", pad([1.0, 2.0, 3.0], [3], [(1, 2)], 9.0))
    show("space_to_depth 1x4x4x1 b2", space_to_depth(halves(16), [1, 4, 4, 1], 2))
    show("space_to_depth 1x2x2x2 b2", space_to_depth(halves(8, -2.0), [1, 2, 2, 2], 2))
    show("depth_to_space 1x1x2x8 b2", depth_to_space(halves(16), [1, 1, 2, 8], 2))
    show("depth_to_space 1x2x2x4 b2", depth_to_space(halves(16, -4.0), [1, 2, 2, 4], 2))
    show(
        "space_to_batch 1x2x4x1 block [2,2] pads [[1,1],[0,0]]",
        space_to_batch(halves(8, 0.5), [1, 2, 4, 1], [2, 2], [(1, 1), (0, 0)], 0.0),
    )
    show(
        "space_to_batch 2x2x3x1 block [1,2] pads [[0,0],[1,0]]",
        space_to_batch(halves(12, 0.5), [2, 2, 3, 1], [1, 2], [(0, 0), (1, 0)], 0.0),
    )
    show(
        "space_to_batch 1x4x4x1 block [2,2] no pads",
        space_to_batch(halves(16, 0.5), [1, 4, 4, 1], [2, 2], [(0, 0), (0, 0)], 0.0),
    )
    show("batch_to_space 4x1x2x1 block [2,2]", batch_to_space(halves(8, 0.5), [4, 1, 2, 1], [2, 2]))
    show(
        "batch_to_space 2x2x1x2 block [2,1]", batch_to_space(halves(8, -2.0), [2, 2, 1, 2], [2, 1])
    )
    show("channel_shuffle 2x6 G3 axis 1", channel_shuffle(halves(12), [2, 6], 3, 1))
    show("channel_shuffle 1x2x2x4 G2 axis 3", channel_shuffle(halves(16, -4.0), [1, 2, 2, 4], 2, 3))

    ints12 = [float(v) for v in range(-5, 7)]  # -5 .. 6: exact as int32, float16, quant8
    show("gather int 3x2 axis 0 [2,0,2]", gather(ints12[:6], [3, 2], 0, [2, 0, 2], [3]))
    show(
        "gather int 2x3 axis -1 [[1,0],[2,2]]",
        gather(ints12[:6], [2, 3], 1, [1, 0, 2, 2], [2, 2]),
    )
    show("gather int 2x2x3 axis 1 [1]", gather(ints12, [2, 2, 3], 1, [1], [1]))
    for k, part in enumerate(split(ints12, [2, 6], 1, 3)):
        show(f"split int 2x6 axis 1 into 3, output {k}", part)
    for k, part in enumerate(split(ints12, [2, 3, 2], 0, 2)):
        show(f"split int 2x3x2 axis -3 into 2, output {k}", part)
    show("slice int 3x4 begin [1,1] size [2,-1]", slice_(ints12, [3, 4], [1, 1], [2, -1]))
    show(
        "slice int 2x3x2 begin [0,1,1] size [2,2,1]",
        slice_(ints12, [2, 3, 2], [0, 1, 1], [2, 2, 1]),
    )
    show(
        "slice int 1x2x3x2 begin [0,1,0,1] size [-1,1,2,1]",
        slice_(ints12, [1, 2, 3, 2], [0, 1, 0, 1], [-1, 1, 2, 1]),
    )
    show("tile int 2x3 [2,1]", tile(ints12[:6], [2, 3], [2, 1]))
    show("tile int 3 [3]", tile([-1.0, 0.0, 7.0], [3], [3]))
    show("tile int 1x2x1x2 [2,1,3,1]", tile([1.0, 2.0, 3.0, 4.0], [1, 2, 1, 2], [2, 1, 3, 1]))
    show(
        "pad_v2 1x2x2x1 all dims value 3 (raw quant8)",
        pad([20.0, 4.0, 0.0, 255.0], [1, 2, 2, 1], [(1, 0), (0, 1), (1, 0), (0, 1)], 3.0),
    )
    show(
        "pad_v2 2x1x1x2 value 0.25",
        pad([1.0, -2.0, 3.0, -4.0], [2, 1, 1, 2], [(0, 0), (1, 1), (0, 0), (0, 1)], 0.25),
    )
    show("channel_shuffle 2x2x6 G2 axis 2", channel_shuffle(ints12 + ints12, [2, 2, 6], 2, 2))


# Spec outputs not computed here (derived by hand in the spec), skipped by --check.
HAND_DERIVED = {
    ("V1_0/concatenation.mod.py", "output2"): "by hand",
    ("V1_1/concatenation_relaxed.mod.py", "output1"): "by hand",
    ("V1_1/pad.mod.py", "output2"): "by hand",
    ("V1_2/concatenation_v1_2.mod.py", "output1"): "by hand",
    ("V1_2/concatenation_v1_2.mod.py", "output2"): "by hand",
    ("V1_2/pad_v1_2.mod.py", "output1"): "by hand",
    ("V1_2/pad_v2.mod.py", "output4"): "by hand",
    ("V1_2/split.mod.py", "output02"): "by hand",
}


if __name__ == "__main__":
    from speccheck import main_with_check

    if not main_with_check(__file__, main, HAND_DERIVED):
        main()
