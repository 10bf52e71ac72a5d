# PAD and PAD_V2 with TENSOR_QUANT8_ASYMM_SIGNED input and output (HAL 1.3; the output has
# the input's quantization). PAD fills with the zero point (a real 0); PAD_V2 with its
# INT32 pad value, a signed byte in the input's quantization. Covers zero points -128,
# -60, 0, 100 and values that saturate at -128 and 127 (a copy saturates as its input).
# Golden values: conformance/specs/oracles/signed_b_oracle.py, cases pad, pad_v2 and
# pad_v2_zero_point (PAD_V2 written in raw signed bytes).


def signed(name, ops, scale, zero_point):
    return DataTypeConverter(name=name).Identify(
        {op: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point) for op in ops})


# 1. PAD [1, 2, 3, 1] with paddings [[0, 0], [1, 1], [2, 0], [0, 1]] -> [1, 4, 5, 2].
i1 = Input("input", "TENSOR_FLOAT32", "{1, 2, 3, 1}")
p1 = Parameter("paddings", "TENSOR_INT32", "{4, 2}", [0, 0, 1, 1, 2, 0, 0, 1])
o1 = Output("output", "TENSOR_FLOAT32", "{1, 4, 5, 2}")
Model("pad").Operation("PAD", i1, p1).To(o1)
Example({
    i1: [10.5, -19.0, 15.5, 13.5, 10.0, -16.5],
    o1: [
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 10.5, 0.0,
        -19.0, 0.0, 15.5, 0.0, 0.0, 0.0, 0.0, 0.0, 13.5, 0.0, 10.0, 0.0, -16.5, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    ],
}).AddInput(p1).AddVariations(
    signed("signed_zp0", [i1, o1], 0.5, 0), signed("signed_saturating_low", [i1, o1], 0.25, -60),
    signed("signed_saturating_high", [i1, o1], 0.5, 100),
    signed("signed_zp_min", [i1, o1], 0.25, -128), includeDefault=False)

# 2. PAD_V2 [2, 3] at (0.5, -20) with paddings [[1, 0], [0, 2]] and pad byte -100 (real
#    -40, not the zero point) -> [3, 5]; the data holds both ends of the int8 range.
i2 = Input("input", "TENSOR_QUANT8_ASYMM_SIGNED", "{2, 3}, 0.5, -20")
o2 = Output("output", "TENSOR_QUANT8_ASYMM_SIGNED", "{3, 5}, 0.5, -20")
Model("pad_v2").Operation("PAD_V2", i2, Parameter(
    "paddings", "TENSOR_INT32", "{2, 2}", [1, 0, 0, 2]), -100).To(o2)
Example({
    i2: [-128.0, -1.0, 0.0, 1.0, 127.0, -100.0],
    o2: [
        -100.0, -100.0, -100.0, -100.0, -100.0, -128.0, -1.0, 0.0, -100.0, -100.0, 1.0,
        127.0, -100.0, -100.0, -100.0
    ],
})

# 3. PAD_V2 [4] at (0.25, -128) with paddings [[2, 1]] and the zero point -128 as pad byte.
i3 = Input("input", "TENSOR_QUANT8_ASYMM_SIGNED", "{4}, 0.25, -128")
o3 = Output("output", "TENSOR_QUANT8_ASYMM_SIGNED", "{7}, 0.25, -128")
Model("pad_v2_zero_point").Operation("PAD_V2", i3, Parameter(
    "paddings", "TENSOR_INT32", "{1, 2}", [2, 1]), -128).To(o3)
Example({
    i3: [-128.0, -127.0, 100.0, 127.0],
    o3: [-128.0, -128.0, -128.0, -127.0, 100.0, 127.0, -128.0],
})
