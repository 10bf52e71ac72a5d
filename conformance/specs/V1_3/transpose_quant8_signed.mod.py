# TRANSPOSE, TILE and CHANNEL_SHUFFLE with TENSOR_QUANT8_ASYMM_SIGNED input and output (HAL
# 1.3; the output has the input's quantization). Values are multiples of 0.5 in
# [-20, 20]: at (0.5, 0) all fit, at (0.25, -60) those below -17 saturate at -128, at
# (0.5, 100) those above 13.5 saturate at 127 (a copy saturates as its input did).
# Golden values: conformance/specs/oracles/signed_b_oracle.py, cases transpose, tile and
# channel_shuffle.


def signed_variations(i, o):
    def one(name, scale, zero_point):
        return DataTypeConverter(name=name).Identify({
            i: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
            o: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
        })
    return (one("signed_zp0", 0.5, 0), one("signed_saturating_low", 0.25, -60),
            one("signed_saturating_high", 0.5, 100))


# 1. TRANSPOSE [2, 3, 4] with perm [1, 2, 0] -> [3, 4, 2], the permutation also as an
#    input.
i1 = Input("input", "TENSOR_FLOAT32", "{2, 3, 4}")
p1 = Parameter("perm", "TENSOR_INT32", "{3}", [1, 2, 0])
o1 = Output("output", "TENSOR_FLOAT32", "{3, 4, 2}")
Model("transpose").Operation("TRANSPOSE", i1, p1).To(o1)
Example({
    i1: [
        17.5, 2.0, 17.0, -13.5, -20.0, -0.5, 13.5, 16.5, 1.0, -1.5, -10.0, 2.0, -9.5,
        -11.0, -14.0, 5.0, 2.0, -9.5, 7.5, 19.0, 4.5, 9.0, 11.5, -5.5
    ],
    o1: [
        17.5, -9.5, 2.0, -11.0, 17.0, -14.0, -13.5, 5.0, -20.0, 2.0, -0.5, -9.5, 13.5,
        7.5, 16.5, 19.0, 1.0, 4.5, -1.5, 9.0, -10.0, 11.5, 2.0, -5.5
    ],
}).AddInput(p1).AddVariations(*signed_variations(i1, o1), includeDefault=False)

# 2. TILE [2, 3] by [2, 2] -> [4, 6].
i2 = Input("input", "TENSOR_FLOAT32", "{2, 3}")
o2 = Output("output", "TENSOR_FLOAT32", "{4, 6}")
Model("tile").Operation("TILE", i2, [2, 2]).To(o2)
Example({
    i2: [-19.0, -7.5, -5.5, 5.0, 1.0, -20.0],
    o2: [
        -19.0, -7.5, -5.5, -19.0, -7.5, -5.5, 5.0, 1.0, -20.0, 5.0, 1.0, -20.0, -19.0,
        -7.5, -5.5, -19.0, -7.5, -5.5, 5.0, 1.0, -20.0, 5.0, 1.0, -20.0
    ],
}).AddVariations(*signed_variations(i2, o2), includeDefault=False)

# 3. CHANNEL_SHUFFLE [2, 2, 6] in 3 groups on axis -1 (the last, 2): channel k * 3 + g of
#    the output is channel g * 2 + k of the input.
i3 = Input("input", "TENSOR_FLOAT32", "{2, 2, 6}")
o3 = Output("output", "TENSOR_FLOAT32", "{2, 2, 6}")
Model("channel_shuffle").Operation("CHANNEL_SHUFFLE", i3, 3, -1).To(o3)
Example({
    i3: [
        -4.5, 19.5, 17.0, 7.0, 10.5, -0.5, -11.5, 7.0, 14.5, -12.5, -4.0, -1.5, 18.0,
        -18.0, -2.5, 0.0, -8.0, -8.5, 17.5, -8.0, -10.5, 14.0, -11.5, -4.5
    ],
    o3: [
        -4.5, 17.0, 10.5, 19.5, 7.0, -0.5, -11.5, 14.5, -4.0, 7.0, -12.5, -1.5, 18.0,
        -2.5, -8.0, -18.0, 0.0, -8.5, 17.5, -10.5, -11.5, -8.0, 14.0, -4.5
    ],
}).AddVariations(*signed_variations(i3, o3), includeDefault=False)
