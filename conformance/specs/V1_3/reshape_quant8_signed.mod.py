# RESHAPE, SQUEEZE and EXPAND_DIMS with TENSOR_QUANT8_ASYMM_SIGNED input and output (HAL
# 1.3; the output has the input's quantization). Values are multiples of 0.5 in
# [-20, 20]: at (0.5, 0) all fit, at (0.25, -60) those below -17 saturate at -128, at
# (0.5, 100) those above 13.5 saturate at 127 (a copy saturates as its input did).
# Golden values: conformance/specs/oracles/signed_b_oracle.py, cases reshape, squeeze and
# expand_dims (the data keeps its row-major order).


def signed_variations(i, o):
    def one(name, scale, zero_point):
        return DataTypeConverter(name=name).Identify({
            i: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
            o: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
        })
    return (one("signed_zp0", 0.5, 0), one("signed_saturating_low", 0.25, -60),
            one("signed_saturating_high", 0.5, 100))


# 1. RESHAPE [3, 4] -> [2, -1, 3] = [2, 2, 3], the shape also as an input.
i1 = Input("input", "TENSOR_FLOAT32", "{3, 4}")
s1 = Parameter("shape", "TENSOR_INT32", "{3}", [2, -1, 3])
o1 = Output("output", "TENSOR_FLOAT32", "{2, 2, 3}")
Model("reshape").Operation("RESHAPE", i1, s1).To(o1)
Example({
    i1: [14.0, 12.5, 14.5, -12.0, 11.5, -18.5, -11.5, -19.5, 18.0, -15.0, 20.0, -2.5],
    o1: [14.0, 12.5, 14.5, -12.0, 11.5, -18.5, -11.5, -19.5, 18.0, -15.0, 20.0, -2.5],
}).AddInput(s1).AddVariations(*signed_variations(i1, o1), includeDefault=False)

# 2. SQUEEZE [1, 3, 1, 2] on axes [0, 2] -> [3, 2].
i2 = Input("input", "TENSOR_FLOAT32", "{1, 3, 1, 2}")
o2 = Output("output", "TENSOR_FLOAT32", "{3, 2}")
Model("squeeze").Operation("SQUEEZE", i2, [0, 2]).To(o2)
Example({
    i2: [3.5, 0.0, 5.0, -7.0, -14.0, 1.5],
    o2: [3.5, 0.0, 5.0, -7.0, -14.0, 1.5],
}).AddVariations(*signed_variations(i2, o2), includeDefault=False)

# 3. EXPAND_DIMS [2, 3] at axis 1 -> [2, 1, 3], and at axis -1 -> [2, 3, 1].
i3 = Input("input", "TENSOR_FLOAT32", "{2, 3}")
o3 = Output("output", "TENSOR_FLOAT32", "{2, 1, 3}")
Model("expand_dims").Operation("EXPAND_DIMS", i3, 1).To(o3)
Example({
    i3: [-8.0, 7.0, 3.5, -17.0, 16.5, -19.0],
    o3: [-8.0, 7.0, 3.5, -17.0, 16.5, -19.0],
}).AddVariations(*signed_variations(i3, o3), includeDefault=False)

i4 = Input("input", "TENSOR_FLOAT32", "{2, 3}")
o4 = Output("output", "TENSOR_FLOAT32", "{2, 3, 1}")
Model("expand_dims_last").Operation("EXPAND_DIMS", i4, -1).To(o4)
Example({
    i4: [-8.0, 7.0, 3.5, -17.0, 16.5, -19.0],
    o4: [-8.0, 7.0, 3.5, -17.0, 16.5, -19.0],
}).AddVariations(*signed_variations(i4, o4), includeDefault=False)
