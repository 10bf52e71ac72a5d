# SELECT (HAL 1.2): out[i] = cond[i] ? a[i] : b[i], all four tensors of one shape
# (no broadcasting). Quant8 inputs may each have their own scale and zero point:
# the chosen value is requantized into the output's. Golden values from
# conformance/specs/oracles/comparison_oracle.py, and by hand below.

# cond [[1, 0, 0], [1, 1, 0]] picks a, b, b, a, a, b:
# [1.5, 3.0, -0.5, -3.0, 4.0, -4.0]. quant8: a at 0.25 zp 128, b at 0.5 zp 100, the
# output at 0.5 zp 120; every value is a multiple of 0.5, so no rounding happens:
# expected [123, 126, 119, 114, 128, 112].
cond = Input("cond", "TENSOR_BOOL8", "{2, 3}")
a = Input("a", "TENSOR_FLOAT32", "{2, 3}")
b = Input("b", "TENSOR_FLOAT32", "{2, 3}")
out = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("SELECT", cond, a, b).To(out)

quant8 = DataTypeConverter().Identify({
    a: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
    b: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    out: ("TENSOR_QUANT8_ASYMM", 0.5, 120),
})

Example({
    cond: [True, False, False, True, True, False],
    a: [1.5, -2.0, 0.5, -3.0, 4.0, 2.5],
    b: [-1.0, 3.0, -0.5, 2.0, 5.0, -4.0],
    out: [1.5, 3.0, -0.5, -3.0, 4.0, -4.0],
}).AddVariations("relaxed", "float16", quant8)

# All true (rank 1, the constant k chosen everywhere; k also runs as a model input)
# and all false (rank 3, v everywhere).
t = Input("t", "TENSOR_BOOL8", "{4}")
k = Parameter("k", "TENSOR_FLOAT32", "{4}", [0.25, -8.0, 1024.0, -0.125])
v = Input("v", "TENSOR_FLOAT32", "{4}")
tout = Output("tout", "TENSOR_FLOAT32", "{4}")
Model("all_true").Operation("SELECT", t, k, v).To(tout)

Example({
    t: [True, True, True, True],
    v: [9.0, 9.0, 9.0, 9.0],
    tout: [0.25, -8.0, 1024.0, -0.125],
}).AddInput(k).AddVariations("float16")

f = Input("f", "TENSOR_BOOL8", "{2, 1, 2}")
p = Input("p", "TENSOR_FLOAT32", "{2, 1, 2}")
q = Input("q", "TENSOR_FLOAT32", "{2, 1, 2}")
fout = Output("fout", "TENSOR_FLOAT32", "{2, 1, 2}")
Model("all_false").Operation("SELECT", f, p, q).To(fout)

Example({
    f: [False, False, False, False],
    p: [1.0, 2.0, 3.0, 4.0],
    q: [-1.0, -2.0, -3.0, -4.0],
    fout: [-1.0, -2.0, -3.0, -4.0],
}).AddVariations("relaxed", "float16")

# TENSOR_INT32: values pass through unchanged, extremes included.
ic = Input("ic", "TENSOR_BOOL8", "{4}")
ia = Input("ia", "TENSOR_INT32", "{4}")
ib = Input("ib", "TENSOR_INT32", "{4}")
iout = Output("iout", "TENSOR_INT32", "{4}")
Model("int32").Operation("SELECT", ic, ia, ib).To(iout)

Example({
    ic: [True, False, True, False],
    ia: [2147483647, 1, -2147483648, 3],
    ib: [-1, -2147483648, 0, 2147483647],
    iout: [2147483647, -2147483648, -2147483648, 2147483647],
})

# Quant8 requantization with rounding (half away from zero) and saturation:
# qa at 0.25 zp 0, qb at 2.0 zp 50, output at 0.5 zp 10; out = round(real / 0.5) + 10.
#   qa 0 -> 0 -> 10; qa 1 -> 0.25 -> 10.5 -> 11; qa 3 -> 0.75 -> 11.5 -> 12;
#   qa 255 -> 63.75 -> 137.5 -> 138;
#   qb 40 -> -20 -> -30 -> 0; qb 50 -> 0 -> 10; qb 255 -> 410 -> 830 -> 255;
#   qb 47 -> -6 -> -2 -> 0.
qc = Input("qc", "TENSOR_BOOL8", "{8}")
qa = Input("qa", "TENSOR_QUANT8_ASYMM", "{8}, 0.25f, 0")
qb = Input("qb", "TENSOR_QUANT8_ASYMM", "{8}, 2.0f, 50")
qout = Output("qout", "TENSOR_QUANT8_ASYMM", "{8}, 0.5f, 10")
Model("quant8_requantize").Operation("SELECT", qc, qa, qb).To(qout)

Example({
    qc: [True, True, True, True, False, False, False, False],
    qa: [0, 1, 3, 255, 0, 0, 0, 0],
    qb: [0, 0, 0, 0, 40, 50, 255, 47],
    qout: [10, 11, 12, 138, 0, 10, 255, 0],
})
