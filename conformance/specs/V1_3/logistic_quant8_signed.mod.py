# LOGISTIC on TENSOR_QUANT8_ASYMM_SIGNED (HAL 1.3): the output quantization is
# fixed at scale 1/256, zero point -128 (the TENSOR_QUANT8_ASYMM one moved by
# 128), so q = 256 * sigmoid(x) - 128, clamped to [-128, 127].
# Golden values: conformance/specs/oracles/signed_a_oracle.py ("logistic"),
# which also checks each quantized golden (round half away from zero of
# 256 * sigmoid(x), minus 128; every one at least 0.08 from a tie):
# [-123, -109, -46, -31, 0, 81, 116, 127] (11.5 gives 255.997, clamped at 127).
# Input quantizations: zp_neg (0.0625, -64), zp_zero (0.125, 0), zp_pos (0.25, 80).
i = Input("in", "TENSOR_FLOAT32", "{2, 2, 2}")
o = Output("out", "TENSOR_FLOAT32", "{2, 2, 2}")
Model().Operation("LOGISTIC", i).To(o)


def signed(name, scale, zero_point):
    return DataTypeConverter(name=name).Identify({
        i: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
        o: ("TENSOR_QUANT8_ASYMM_SIGNED", 1.0 / 256, -128),
    })


Example({
    i: [-4.0, -2.5, -0.75, -0.5, 0.0, 1.5, 3.0, 11.5],
    o: [0.01798621, 0.07585818, 0.320821301, 0.377540669,
        0.5, 0.817574476, 0.952574127, 0.99998987],
}).AddVariations(
    signed("zp_neg", 0.0625, -64),
    signed("zp_zero", 0.125, 0),
    signed("zp_pos", 0.25, 80),
    includeDefault=False)

# The input's zero point at the ends of int8, scale 0.125 (oracle: "logistic zp -128",
# "logistic zp 127"): at -128 only values >= 0 exist (31.875 is byte 127),
# giving [0, 24, 71, 123, 127, 127]; at 127 only values <= 0 (-31.875 is byte -128),
# giving [-128, -128, -123, -71, -24, 0] (the nearest 0.104 from a tie).
ie = Input("in", "TENSOR_FLOAT32", "{6}")
oe = Output("out", "TENSOR_FLOAT32", "{6}")
edges = Model("edges").Operation("LOGISTIC", ie).To(oe)


def edge(zero_point):
    return DataTypeConverter(name="signed").Identify({
        ie: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, zero_point),
        oe: ("TENSOR_QUANT8_ASYMM_SIGNED", 1.0 / 256, -128),
    })


Example({
    ie: [0.0, 0.375, 1.25, 4.0, 8.0, 31.875],
    oe: [0.5, 0.5926666, 0.777299861, 0.98201379, 0.99966465, 1.0],
}, model=edges, name="zp_min").AddVariations(edge(-128), includeDefault=False)
Example({
    ie: [-31.875, -8.0, -4.0, -1.25, -0.375, 0.0],
    oe: [1.43503796e-14, 0.00033535013, 0.01798621, 0.222700139, 0.4073334, 0.5],
}, model=edges, name="zp_max").AddVariations(edge(127), includeDefault=False)
