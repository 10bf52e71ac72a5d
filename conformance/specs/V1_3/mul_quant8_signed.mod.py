# MUL on TENSOR_QUANT8_ASYMM_SIGNED (HAL 1.3): a [2, 2] * b [2, 1] (b broadcast
# along the columns), every fused activation. Unlike the TENSOR_QUANT8_ASYMM
# form, the output scale need not exceed the product of the input scales
# (Android 11 does not check it for this type): zp_zero's output scale equals
# 0.125 * 0.25 and zp_pos's (0.0625) is half of 0.25 * 0.5.
# Golden values: conformance/specs/oracles/signed_a_oracle.py ("mul broadcast"),
# which also checks each quantized golden against the HAL's integer arithmetic
# (q = zp_out + MBQM((qa - zpa)(qb - zpb), sa sb / s_out), clamped).
#   zp_neg: a (0.5, -100), b (0.5, -120), out (0.25, -100);
#   zp_zero: a (0.125, 0), b (0.25, 0), out (0.03125, 0): -4.0 and -4.5 clamp at -128;
#   zp_pos: a (0.25, 110), b (0.5, 100), out (0.0625, 60): 3.0 clamps at 127;
#   scale_0_09: out scale 0.09, the nearest golden 0.056 from a tie.
a = Input("a", "TENSOR_FLOAT32", "{2, 2}")
b = Input("b", "TENSOR_FLOAT32", "{2, 1}")
act = Int32Scalar("act", 0)
out = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model().Operation("MUL", a, b, act).To(out)


def signed(name, qa, qb, qout):
    return DataTypeConverter(name=name).Identify({
        a: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qa,
        b: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qb,
        out: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qout,
    })


Example({
    a: [-2.0, 1.5, 3.0, -0.5],
    b: [2.0, -1.5],
    out: [-4.0, 3.0, -4.5, 0.75],
}).AddAllActivations(out, act).AddVariations(
    signed("zp_neg", (0.5, -100), (0.5, -120), (0.25, -100)),
    signed("zp_zero", (0.125, 0), (0.25, 0), (0.03125, 0)),
    signed("zp_pos", (0.25, 110), (0.5, 100), (0.0625, 60)),
    signed("scale_0_09", (0.5, -10), (0.25, 20), (0.09, -10)),
    includeDefault=False)
