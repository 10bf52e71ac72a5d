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
