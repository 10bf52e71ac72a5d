# STRIDED_SLICE, SLICE and SPLIT with TENSOR_QUANT8_ASYMM_SIGNED input and outputs (HAL
# 1.3; every output has the input's quantization). Values are multiples of 0.5 in
# [-20, 20]: at (0.5, 0) all fit, at (0.25, -60) those below -17 saturate at -128, at
# (0.5, 100) those above 13.5 saturate at 127 (a copy saturates as its input did).
# Golden values: conformance/specs/oracles/signed_b_oracle.py, cases strided_slice,
# slice_ and split.


def signed_variations(*ops):
    def one(name, scale, zero_point):
        return DataTypeConverter(name=name).Identify(
            {op: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point) for op in ops})
    return (one("signed_zp0", 0.5, 0), one("signed_saturating_low", 0.25, -60),
            one("signed_saturating_high", 0.5, 100))


# 1. STRIDED_SLICE [3, 4], begin [2, 0], end [0, 4], strides [-1, 2], no masks: rows 2
#    and 1, columns 0 and 2 -> [2, 2].
i1 = Input("input", "TENSOR_FLOAT32", "{3, 4}")
o1 = Output("output", "TENSOR_FLOAT32", "{2, 2}")
Model("strided_slice").Operation("STRIDED_SLICE", i1, [2, 0], [0, 4], [-1, 2], 0, 0, 0).To(o1)
Example({
    i1: [17.0, -8.0, 14.5, 2.5, 9.5, -17.0, 12.0, -6.5, 18.5, -6.0, -2.0, 11.0],
    o1: [18.5, -2.0, 9.5, 12.0],
}).AddVariations(*signed_variations(i1, o1), includeDefault=False)

# 2. SLICE [2, 3, 4], begin [1, 0, 1], size [1, -1, 2] -> [1, 3, 2].
i2 = Input("input", "TENSOR_FLOAT32", "{2, 3, 4}")
o2 = Output("output", "TENSOR_FLOAT32", "{1, 3, 2}")
Model("slice").Operation("SLICE", i2, [1, 0, 1], [1, -1, 2]).To(o2)
Example({
    i2: [
        -11.0, 19.0, 2.5, -9.5, 15.0, 18.5, -8.5, 4.5, -1.5, 19.5, 7.0, 16.0, 17.0,
        -17.5, 13.5, 14.5, 19.5, 13.0, -8.5, 4.0, 8.0, -5.5, 12.5, -12.0
    ],
    o2: [-17.5, 13.5, 13.0, -8.5, -5.5, 12.5],
}).AddVariations(*signed_variations(i2, o2), includeDefault=False)

# 3. SPLIT [2, 6] on axis -1 into 3 outputs of [2, 2].
i3 = Input("input", "TENSOR_FLOAT32", "{2, 6}")
s0 = Output("output0", "TENSOR_FLOAT32", "{2, 2}")
s1 = Output("output1", "TENSOR_FLOAT32", "{2, 2}")
s2 = Output("output2", "TENSOR_FLOAT32", "{2, 2}")
Model("split").Operation("SPLIT", i3, -1, 3).To(s0, s1, s2)
Example({
    i3: [9.0, -6.5, -15.5, 18.5, -12.5, 4.0, 9.5, 1.5, -12.5, 11.0, -15.0, -12.0],
    s0: [9.0, -6.5, 9.5, 1.5],
    s1: [-15.5, 18.5, -12.5, 11.0],
    s2: [-12.5, 4.0, -15.0, -12.0],
}).AddVariations(*signed_variations(i3, s0, s1, s2), includeDefault=False)
