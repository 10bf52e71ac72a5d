# ADD on TENSOR_QUANT8_ASYMM_SIGNED (HAL 1.3): both inputs and the output each
# carry their own scale and zero point; the sum is requantized into the
# output's and clamped to the activation's range and to [-128, 127].
# Golden values: conformance/specs/oracles/signed_a_oracle.py ("add broadcast"),
# which also checks that the generator's quantization of each float golden is
# what the HAL's integer arithmetic (left shift 20, rounding multiplies) gives.
#
# a [2, 3] + b [3] (b broadcast along the rows), every fused activation, four
# signed quantizations:
#   zp_neg: a (0.5, -100), b (0.25, -50), out (0.25, -128): negative sums clamp at -128;
#   zp_zero: a (0.125, 0), b (0.5, 0), out (0.0625, 0): 12.0 clamps at 127;
#   zp_pos: a (0.5, 100), b (0.5, 120) (near 127), out (0.25, 90): 12.0 clamps at 127;
#   scale_0_3: out scale 0.3 (not a power of two), the nearest golden 0.167 from a tie.
a = Input("a", "TENSOR_FLOAT32", "{2, 3}")
b = Input("b", "TENSOR_FLOAT32", "{3}")
act = Int32Scalar("act", 0)
out = Output("out", "TENSOR_FLOAT32", "{2, 3}")
Model().Operation("ADD", a, b, act).To(out)


def signed(name, qa, qb, qout):
    return DataTypeConverter(name=name).Identify({
        a: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qa,
        b: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qb,
        out: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qout,
    })


Example({
    a: [-3.0, -0.5, 0.0, 1.5, 4.0, 10.0],
    b: [0.5, -1.0, 2.0],
    out: [-2.5, -1.5, 2.0, 2.0, 3.0, 12.0],
}).AddAllActivations(out, act).AddVariations(
    signed("zp_neg", (0.5, -100), (0.25, -50), (0.25, -128)),
    signed("zp_zero", (0.125, 0), (0.5, 0), (0.0625, 0)),
    signed("zp_pos", (0.5, 100), (0.5, 120), (0.25, 90)),
    signed("scale_0_3", (0.5, -10), (0.25, 5), (0.3, -20)),
    includeDefault=False)

# Inputs at the ends of the zero points, rank 4, no activation: x at (0.125, -128) holds
# only values >= 0 (31.75 is byte 126), y at (0.125, 127) only values <= 0 (-31.875 is
# byte -128, 0.0 byte 127). Golden values: the oracle's "add extremes".
#   out_zp_0 (0.125, 0): -16.0 and -16.25 clamp at -128, 31.75 at 127;
#   out_zp_min (0.25, -128): [-128, -126, -1, -128];
#   out_scale_0_75 (0.75, 100): [79, 101, 127, 78] (the nearest 0.167 from a tie).
x = Input("x", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
y = Input("y", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
z = Output("z", "TENSOR_FLOAT32", "{1, 2, 2, 1}")
Model("extremes").Operation("ADD", x, y, 0).To(z)
Example({
    x: [0.0, 1.0, 31.75, 15.625],
    y: [-16.0, -0.5, 0.0, -31.875],
    z: [-16.0, 0.5, 31.75, -16.25],
}).AddVariations(*[
    DataTypeConverter(name=name).Identify({
        x: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, -128),
        y: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.125, 127),
        z: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
    })
    for name, scale, zero_point in [("out_zp_0", 0.125, 0), ("out_zp_min", 0.25, -128),
                                    ("out_scale_0_75", 0.75, 100)]
], includeDefault=False)
