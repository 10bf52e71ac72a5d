# SUB on TENSOR_QUANT8_ASYMM_SIGNED (HAL 1.3): a - b with a [3] broadcast
# against b [2, 3]; both inputs and the output each carry their own scale and
# zero point, and the difference is clamped to the activation's range and to
# [-128, 127]. Golden values: conformance/specs/oracles/signed_a_oracle.py
# ("sub broadcast"), which also checks each quantized golden against the HAL's
# integer arithmetic (left shift 20, b's multiplier negated).
#   zp_neg: a (0.5, -120), b (0.25, -100), out (0.125, -64);
#   zp_zero: a (0.25, 0), b (0.125, 0), out (0.0625, 0): 8.0 clamps at 127;
#   zp_pos: a (0.25, 100), b (0.5, 110), out (0.5, 110): relu1's 1.0 and relu6's 6.0
#     are bytes 112 and 122;
#   scale_0_7: out scale 0.7, the nearest golden 0.071 from a tie.
a = Input("a", "TENSOR_FLOAT32", "{3}")
b = Input("b", "TENSOR_FLOAT32", "{2, 3}")
act = Int32Scalar("act", 0)
out = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("SUB", a, b, act).To(out)


def signed(name, qa, qb, qout):
    return DataTypeConverter(name=name).Identify({
        a: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qa,
        b: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qb,
        out: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qout,
    })


Example({
    a: [-1.0, 2.5, 6.0],
    b: [0.5, 3.0, -2.0, -4.0, 1.0, 8.0],
    out: [-1.5, -0.5, 8.0, 3.0, 1.5, -2.0],
}).AddAllActivations(out, act).AddVariations(
    signed("zp_neg", (0.5, -120), (0.25, -100), (0.125, -64)),
    signed("zp_zero", (0.25, 0), (0.125, 0), (0.0625, 0)),
    signed("zp_pos", (0.25, 100), (0.5, 110), (0.5, 110)),
    signed("scale_0_7", (0.5, -20), (0.25, 10), (0.7, 3)),
    includeDefault=False)

# Inputs at the ends of the zero points, rank 4, no activation: x at (0.125, 127) holds
# only values <= 0 (-31.875 is byte -128), y at (0.125, -128) only values >= 0 (31.875
# is byte 127); every difference is <= 0. Golden values: the oracle's "sub extremes".
#   out_zp_max (0.125, 127): [127, -8, -1, -128] (-63.75 clamps);
#   out_scale_0_3 (0.3, 0): [0, -56, -53, -128];
#   out_scale_0_5 (0.5, -10): [-10, -44, -42, -128].
x = Input("x", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
y = Input("y", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
z = Output("z", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
Model("extremes").Operation("SUB", x, y, 0).To(z)
Example({
    x: [0.0, -1.0, -15.875, -31.875],
    y: [0.0, 15.875, 0.125, 31.875],
    z: [0.0, -16.875, -16.0, -63.75],
}).AddVariations(*[
    DataTypeConverter(name=name).Identify({
        x: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, 127),
        y: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, -128),
        z: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
    })
    for name, scale, zero_point in [("out_zp_max", 0.125, 127), ("out_scale_0_3", 0.3, 0),
                                    ("out_scale_0_5", 0.5, -10)]
], includeDefault=False)
