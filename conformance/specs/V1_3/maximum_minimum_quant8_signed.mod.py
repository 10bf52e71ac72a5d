# MAXIMUM and MINIMUM on TENSOR_QUANT8_ASYMM_SIGNED (HAL 1.3): a [2, 3] against
# b [3] (broadcast), each input and the output with its own scale and zero
# point: every input value is requantized into the output's quantization
# (rounding half away from zero, clamped to [-128, 127]), then compared.
# Golden values: conformance/specs/oracles/signed_a_oracle.py ("maximum",
# "minimum"), which also checks each quantized golden against that arithmetic.
#   zp_neg: a (0.25, -100), b (0.5, -125) (-1.5 is byte -128), out (0.25, -128):
#     negative results clamp at -128;
#   zp_zero: a (0.25, 0), b (0.125, 0), out (0.35, 0): every value rounds (the
#     nearest 0.071 from a tie);
#   zp_pos: a (0.25, 90), b (0.5, 120), out (0.0625, 100): 2.0 and above clamp at 127.
a = Input("a", "TENSOR_FLOAT32", "{2, 3}")
b = Input("b", "TENSOR_FLOAT32", "{3}")
out = Output("out", "TENSOR_FLOAT32", "{2, 3}")
maximum = Model("maximum").Operation("MAXIMUM", a, b).To(out)

x = Input("x", "TENSOR_FLOAT32", "{2, 3}")
y = Input("y", "TENSOR_FLOAT32", "{3}")
z = Output("z", "TENSOR_FLOAT32", "{2, 3}")
minimum = Model("minimum").Operation("MINIMUM", x, y).To(z)


def variations(first, second, result):
    quants = [
        ("zp_neg", (0.25, -100), (0.5, -125), (0.25, -128)),
        ("zp_zero", (0.25, 0), (0.125, 0), (0.35, 0)),
        ("zp_pos", (0.25, 90), (0.5, 120), (0.0625, 100)),
    ]
    return [
        DataTypeConverter(name=name).Identify({
            first: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qa,
            second: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qb,
            result: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qout,
        })
        for name, qa, qb, qout in quants
    ]


A = [-3.0, 0.5, 2.25, 7.0, -0.25, 1.0]
B = [1.0, -1.5, 2.0]
Example({a: A, b: B, out: [1.0, 0.5, 2.25, 7.0, -0.25, 2.0]}, model=maximum).AddVariations(
    *variations(a, b, out), includeDefault=False)
Example({x: A, y: B, z: [-3.0, -1.5, 2.0, 1.0, -1.5, 1.0]}, model=minimum).AddVariations(
    *variations(x, y, z), includeDefault=False)
