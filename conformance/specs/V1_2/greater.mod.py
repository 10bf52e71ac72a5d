# GREATER (HAL 1.2): element-wise a > b with broadcasting, written as BOOL8 0/1.
# Golden values: conformance/specs/oracles/comparison_oracle.py (an element-by-element
# implementation of the definition, independent of the driver); the first two
# examples are also derived by hand below.

# Rank 3 against rank 1: a {2, 1, 3} = [[[-2, 3, 1]], [[4, 0, 2]]], b {3} = [-2, 0, 2].
# Row 0: -2 > -2, 3 > 0, 1 > 2 -> [0, 1, 0];
# row 1: 4 > -2, 0 > 0, 2 > 2 -> [1, 0, 0].
# Integer data, exact in float16, so the relaxed, float16 and int32 variations keep
# the results; quant8 gives the inputs different scales and zero points (a at 0.5
# zp 128 -> [124, 134, 130, 136, 128, 132], b at 0.25 zp 100 -> [92, 100, 108]):
# the reals compared are unchanged.
a = Input("a", "TENSOR_FLOAT32", "{2, 1, 3}")
b = Input("b", "TENSOR_FLOAT32", "{3}")
out = Output("out", "TENSOR_BOOL8", "{2, 1, 3}")
Model().Operation("GREATER", a, b).To(out)

quant8 = DataTypeConverter().Identify({
    a: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    b: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
})

Example({
    a: [-2.0, 3.0, 1.0, 4.0, 0.0, 2.0],
    b: [-2.0, 0.0, 2.0],
    out: [0, 1, 0, 1, 0, 0],
}).AddVariations("relaxed", "float16", "int32", quant8)

# Size-1 axes on both sides: x {2, 1} = [1.5, -0.5] against a constant c {1, 3} =
# [-0.5, 1.5, 0.25] gives {2, 3}:
# row 0: 1.5 > -0.5, 1.5 > 1.5, 1.5 > 0.25 -> [1, 0, 1];
# row 1: -0.5 > -0.5, -0.5 > 1.5, -0.5 > 0.25 -> [0, 0, 0].
# c also runs as a model input.
x = Input("x", "TENSOR_FLOAT32", "{2, 1}")
c = Parameter("c", "TENSOR_FLOAT32", "{1, 3}", [-0.5, 1.5, 0.25])
y = Output("y", "TENSOR_BOOL8", "{2, 3}")
Model("broadcast").Operation("GREATER", x, c).To(y)

Example({x: [1.5, -0.5], y: [1, 0, 1, 0, 0, 0]}).AddInput(c).AddVariations("relaxed", "float16")

# Quant8 inputs with their own parameters: qa at scale 0.3 zp 10, qb at scale 0.6 zp 200.
# Reals (float32 products): qa = [-0.6, 0, 0.6, 1.2, 73.5, -3], qb = [-0.6, 0, 0.6, 0.6, -120, 33]
# (2 * 0.3f is exactly 0.6f, so the first three pairs are equal).
qa = Input("qa", "TENSOR_QUANT8_ASYMM", "{6}, 0.3f, 10")
qb = Input("qb", "TENSOR_QUANT8_ASYMM", "{6}, 0.6f, 200")
qout = Output("qout", "TENSOR_BOOL8", "{6}")
Model("quant8_scales").Operation("GREATER", qa, qb).To(qout)

Example({
    qa: [8, 10, 12, 14, 255, 0],
    qb: [199, 200, 201, 201, 0, 255],
    qout: [0, 0, 0, 1, 1, 0],
})

# TENSOR_INT32 extremes.
ia = Input("ia", "TENSOR_INT32", "{6}")
ib = Input("ib", "TENSOR_INT32", "{6}")
iout = Output("iout", "TENSOR_BOOL8", "{6}")
Model("int32_extremes").Operation("GREATER", ia, ib).To(iout)

Example({
    ia: [-2147483648, 2147483647, 0, -1, 7, -2147483648],
    ib: [2147483647, 2147483647, -2147483648, 0, 7, -2147483648],
    iout: [0, 0, 1, 0, 0, 0],
})

# TENSOR_BOOL8 inputs compare as 0/1: {2, 2} [[0, 1], [1, 0]] against {2} [1, 0].
ba = Input("ba", "TENSOR_BOOL8", "{2, 2}")
bb = Input("bb", "TENSOR_BOOL8", "{2}")
bout = Output("bout", "TENSOR_BOOL8", "{2, 2}")
Model("bool8").Operation("GREATER", ba, bb).To(bout)

Example({
    ba: [False, True, True, False],
    bb: [True, False],
    bout: [0, 1, 0, 0],
})

# IEEE special values: -0 equals +0, infinities compare as numbers, NaN is
# unordered (only NOT_EQUAL holds); 65504 is the largest float16.
fa = Input("fa", "TENSOR_FLOAT32", "{7}")
fb = Input("fb", "TENSOR_FLOAT32", "{7}")
fout = Output("fout", "TENSOR_BOOL8", "{7}")
Model("special").Operation("GREATER", fa, fb).To(fout)

inf = float("inf")
nan = float("nan")
# No lifetime variations: the ADD that would write these inputs turns an
# infinity into +-FLT_MAX (docs/operations.md, ADD).
Example({
    fa: [-0.0, inf, -inf, nan, 1.0, nan, inf],
    fb: [0.0, inf, -3.0, 2.0, nan, nan, 65504.0],
    fout: [0, 0, 0, 0, 0, 0, 1],
}).AddVariations("float16").DisableLifeTimeVariation()
