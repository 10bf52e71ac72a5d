# FULLY_CONNECTED with TENSOR_QUANT8_ASYMM_SIGNED input, weights and output (HAL 1.3),
# INT32 bias at input scale x weights scale, rank-2 and rank-4 inputs, every fused
# activation, weights and bias as inputs. Weight zero points from -124 to 123; outputs
# beyond the output range saturate at -128 (zero points -118 and -60) and at 127 (zero
# points 105 and 60).
# Golden values: conformance/specs/oracles/signed_b_oracle.py, cases fully_connected and
# fully_connected_rank4. Inputs are whole numbers (scale 0.5), weights multiples of 0.25,
# biases of 0.25: every output is a multiple of 0.25, exact at the output scales 0.25 and
# 0.125, so no quantized golden depends on how a driver rounds.

# 1. Input [3, 4], weights [3, 4], bias [3]: output [3, 3].
i1 = Input("input", "TENSOR_FLOAT32", "{3, 4}")
w1 = Parameter("weights", "TENSOR_FLOAT32", "{3, 4}", [0.0, -1.0, 1.0, 0.75, 0.25, 0.5, -1.0, -0.5, -0.5, 0.5, -0.5, 0.25])
b1 = Parameter("bias", "TENSOR_FLOAT32", "{3}", [1.0, -0.25, 0.5])
act = Int32Scalar("act", 0)
o1 = Output("output", "TENSOR_FLOAT32", "{3, 3}")
Model().Operation("FULLY_CONNECTED", i1, w1, b1, act).To(o1)

signed_a = DataTypeConverter(name="signed_zp0").Identify({
    i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 0),
    w1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 0),
    b1: ("TENSOR_INT32", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 0),
})
signed_b = DataTypeConverter(name="signed_low").Identify({
    i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, -120),
    w1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -124),
    b1: ("TENSOR_INT32", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, -118),
})
signed_c = DataTypeConverter(name="signed_high").Identify({
    i1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, 119),
    w1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 123),
    b1: ("TENSOR_INT32", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, 105),
})

Example({
    i1: [-1, 4, 4, -2, -1, -1, 4, 0, 2, 4, 3, 4],
    o1: [-0.5, -1.5, 0.5, 6.0, -5.0, -1.5, 3.0, -2.75, 1.0],
}).AddAllActivations(o1, act).AddInput(w1, b1).AddVariations(
    signed_a, signed_b, signed_c, includeDefault=False)

# 2. A rank-4 input [2, 1, 2, 3] read as 2 rows of input_size 6, weights [2, 6], bias [2]:
#    output [2, 2] (oracle case fully_connected_rank4). At (0.125, 60) the output 10
#    saturates at 127; at (0.125, -60), -9.75 saturates at -128.
i2 = Input("input", "TENSOR_FLOAT32", "{2, 1, 2, 3}")
w2 = Parameter("weights", "TENSOR_FLOAT32", "{2, 6}", [-0.5, 0.75, 1.0, 0.0, 0.75, 0.75, 0.5, -0.25, 0.75, 0.25, 0.5, -0.25])
b2 = Parameter("bias", "TENSOR_FLOAT32", "{2}", [-0.5, 0.25])
o2 = Output("output", "TENSOR_FLOAT32", "{2, 2}")
Model("rank4").Operation("FULLY_CONNECTED", i2, w2, b2, 0).To(o2)


def signed2(name, in_zp, weights_zp, out_zp):
    return DataTypeConverter(name=name).Identify({
        i2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.5, in_zp),
        w2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, weights_zp),
        b2: ("TENSOR_INT32", 0.125, 0),
        o2: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, out_zp),
    })


Example({
    i2: [-1, 3, 4, 3, 4, 1, 3, -4, -4, -2, 1, -2],
    o2: [10.0, 4.5, -9.75, 0.25],
}).AddInput(w2, b2).AddVariations(
    signed2("signed_saturating_high", -9, 40, 60), signed2("signed_saturating_low", 100, -1, -60),
    signed2("signed_zp0", 0, 0, 0), includeDefault=False)
