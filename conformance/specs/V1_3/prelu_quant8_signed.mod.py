# PRELU on TENSOR_QUANT8_ASYMM_SIGNED (HAL 1.3): out = x for x >= 0, alpha * x
# otherwise, with alpha [3] broadcast along the channels of x [1, 2, 2, 3]
# (alphas 0.25, -0.5 and 1.5); input, alpha and output each carry their own
# scale and zero point. Golden values: conformance/specs/oracles/signed_a_oracle.py
# ("prelu channels"), which also checks each quantized golden against the
# HAL's integer arithmetic (MBQM by s_x / s_out, or by s_x s_alpha / s_out
# times (q_alpha - zp_alpha) for negative x).
#   zp_neg: x (0.5, -110), alpha (0.25, -120), out (0.25, -100);
#   zp_zero: x (0.25, 0), alpha (0.125, 0), out (0.125, 0);
#   zp_pos: x (0.5, 100), alpha (0.0625, 50), out (0.0625, 120): results of 0.5 and
#     above clamp at 127;
#   scale_0_15: out scale 0.15, the nearest golden 0.167 from a tie.
x = Input("x", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
alpha = Input("alpha", "TENSOR_FLOAT32", "{3}")
out = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
Model().Operation("PRELU", x, alpha).To(out)


def signed(name, qx, qalpha, qout):
    return DataTypeConverter(name=name).Identify({
        x: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qx,
        alpha: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qalpha,
        out: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qout,
    })


Example({
    x: [-4.0, -2.0, 1.0, 2.0, -1.0, -3.0, 0.0, 3.5, -0.5, -6.0, 6.0, -2.5],
    alpha: [0.25, -0.5, 1.5],
    out: [-1.0, 1.0, 1.0, 2.0, 0.5, -4.5, 0.0, 3.5, -0.75, -1.5, 6.0, -3.75],
}).AddVariations(
    signed("zp_neg", (0.5, -110), (0.25, -120), (0.25, -100)),
    signed("zp_zero", (0.25, 0), (0.125, 0), (0.125, 0)),
    signed("zp_pos", (0.5, 100), (0.0625, 50), (0.0625, 120)),
    signed("scale_0_15", (0.5, 10), (0.25, -3), (0.15, -5)),
    includeDefault=False)
