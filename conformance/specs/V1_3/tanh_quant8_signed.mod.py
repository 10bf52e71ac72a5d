# TANH on TENSOR_QUANT8_ASYMM_SIGNED (HAL 1.3): the output quantization is
# fixed at scale 1/128, zero point 0 (the TENSOR_QUANT8_ASYMM one moved by 128),
# so q = 128 * tanh(x), clamped to [-128, 127].
# Golden values: conformance/specs/oracles/signed_a_oracle.py ("tanh"), which
# also checks each quantized golden (round half away from zero of
# 128 * tanh(x); every one at least 0.13 from a tie):
# [-128, -126, -81, -59, 0, 116, 127, 127] (tanh(11.5) * 128 rounds to 128,
# clamped at 127).
# Input quantizations: zp_neg (0.0625, -64), zp_zero (0.125, 0), zp_pos (0.25, 80).
i = Input("in", "TENSOR_FLOAT32", "{2, 2, 2}")
o = Output("out", "TENSOR_FLOAT32", "{2, 2, 2}")
Model().Operation("TANH", i).To(o)


def signed(name, scale, zero_point):
    return DataTypeConverter(name=name).Identify({
        i: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
        o: ("TENSOR_QUANT8_ASYMM_SIGNED", 1.0 / 128, 0),
    })


Example({
    i: [-4.0, -2.5, -0.75, -0.5, 0.0, 1.5, 3.0, 11.5],
    o: [-0.9993293, -0.986614298, -0.635148952, -0.462117157,
        0.0, 0.905148254, 0.995054754, 0.999999998],
}).AddVariations(
    signed("zp_neg", 0.0625, -64),
    signed("zp_zero", 0.125, 0),
    signed("zp_pos", 0.25, 80),
    includeDefault=False)

# The input's zero point at the ends of int8, scale 0.125 (oracle: "tanh zp -128",
# "tanh zp 127"): at -128 only values >= 0 exist (31.875 is byte 127), giving
# [0, 46, 109, 127, 127, 127]; at 127 only values <= 0 (-31.875 is byte -128), giving
# [-128, -128, -128, -109, -46, 0] (the nearest 0.08 from a tie).
ie = Input("in", "TENSOR_FLOAT32", "{6}")
oe = Output("out", "TENSOR_FLOAT32", "{6}")
edges = Model("edges").Operation("TANH", ie).To(oe)


def edge(zero_point):
    return DataTypeConverter(name="signed").Identify({
        ie: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, zero_point),
        oe: ("TENSOR_QUANT8_ASYMM_SIGNED", 1.0 / 128, 0),
    })


Example({
    ie: [0.0, 0.375, 1.25, 4.0, 8.0, 31.875],
    oe: [0.0, 0.358357398, 0.84828364, 0.9993293, 0.999999775, 1.0],
}, model=edges, name="zp_min").AddVariations(edge(-128), includeDefault=False)
Example({
    ie: [-31.875, -8.0, -4.0, -1.25, -0.375, 0.0],
    oe: [-1.0, -0.999999775, -0.9993293, -0.84828364, -0.358357398, 0.0],
}, model=edges, name="zp_max").AddVariations(edge(127), includeDefault=False)
