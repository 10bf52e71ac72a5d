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
