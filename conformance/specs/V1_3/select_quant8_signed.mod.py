# SELECT on TENSOR_QUANT8_ASYMM_SIGNED (HAL 1.3): out[i] = cond[i] ? a[i] : b[i],
# all of one shape; a, b and the output each carry their own scale and zero
# point, and the chosen value is requantized into the output's (rounding half
# away from zero, clamped to [-128, 127]).
# Golden values: conformance/specs/oracles/signed_a_oracle.py ("select"), which
# also checks each quantized golden against that requantization.
#   zp_neg: a (0.25, -100), b (0.5, -116), out (0.25, -128): negative picks clamp at -128;
#   zp_zero: a (0.25, 0), b (0.125, 0), out (0.3, 0): every value rounds (the
#     nearest 0.167 from a tie): [5, 10, -2, -10, 13, -13, 26, -20];
#   zp_pos: a (0.0625, 0) (7.75 is byte 124), b (0.5, 114), out (0.0625, 100):
#     3.0, 4.0 and 7.75 clamp at 127.
cond = Input("cond", "TENSOR_BOOL8", "{2, 4}")
a = Input("a", "TENSOR_FLOAT32", "{2, 4}")
b = Input("b", "TENSOR_FLOAT32", "{2, 4}")
out = Output("out", "TENSOR_FLOAT32", "{2, 4}")
Model().Operation("SELECT", cond, a, b).To(out)


def signed(name, qa, qb, qout):
    return DataTypeConverter(name=name).Identify({
        a: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qa,
        b: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qb,
        out: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qout,
    })


Example({
    cond: [True, False, False, True, True, False, True, False],
    a: [1.5, -2.0, 0.5, -3.0, 4.0, 2.5, 7.75, 0.0],
    b: [-1.0, 3.0, -0.5, 2.0, 5.0, -4.0, 1.0, -6.0],
    out: [1.5, 3.0, -0.5, -3.0, 4.0, -4.0, 7.75, -6.0],
}).AddVariations(
    signed("zp_neg", (0.25, -100), (0.5, -116), (0.25, -128)),
    signed("zp_zero", (0.25, 0), (0.125, 0), (0.3, 0)),
    signed("zp_pos", (0.0625, 0), (0.5, 114), (0.0625, 100)),
    includeDefault=False)
