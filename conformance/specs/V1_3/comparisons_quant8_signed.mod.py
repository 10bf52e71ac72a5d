# EQUAL, GREATER, GREATER_EQUAL, LESS, LESS_EQUAL and NOT_EQUAL on
# TENSOR_QUANT8_ASYMM_SIGNED inputs (HAL 1.3), TENSOR_BOOL8 output: each input is
# dequantized with its own scale and zero point, then compared, so equal real
# values compare equal whatever their bytes. a [2, 3] against b [3] (broadcast).
# Golden values: conformance/specs/oracles/signed_a_oracle.py ("comparison ..."),
# which also compares the dequantized int8 values of every variation.
#   zp_neg: a (0.5, -120), b (0.25, -122) (-1.5 is byte -128): a's 1.0 (byte -118)
#     equals b's 1.0 (byte -118) and a's 0.5 (byte -119) equals b's 0.5 (byte -120);
#   zp_zero: a (0.25, 0), b (0.5, 0);
#   zp_pos: a (0.125, 103) (3.0 is byte 127), b (0.0625, 100).
a = Input("a", "TENSOR_FLOAT32", "{2, 3}")
b = Input("b", "TENSOR_FLOAT32", "{3}")
out = Output("out", "TENSOR_BOOL8", "{2, 3}")
QUANTS = [
    ("zp_neg", (0.5, -120), (0.25, -122)),
    ("zp_zero", (0.25, 0), (0.5, 0)),
    ("zp_pos", (0.125, 103), (0.0625, 100)),
]
SIGNED = [
    DataTypeConverter(name=name).Identify({
        a: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qa,
        b: ("TENSOR_QUANT8_ASYMM_SIGNED",) + qb,
    })
    for name, qa, qb in QUANTS
]
A = [1.0, -2.0, 0.5, 3.0, -1.5, 0.0]
B = [1.0, -1.5, 0.5]
T, F = True, False

EXPECTED = [
    ("equal", "EQUAL", [T, F, T, F, T, F]),
    ("greater", "GREATER", [F, F, F, T, F, F]),
    ("greater_equal", "GREATER_EQUAL", [T, F, T, T, T, F]),
    ("less", "LESS", [F, T, F, F, F, T]),
    ("less_equal", "LESS_EQUAL", [T, T, T, F, T, T]),
    ("not_equal", "NOT_EQUAL", [F, T, F, T, F, T]),
]
for name, operation, expected in EXPECTED:
    model = Model(name).Operation(operation, a, b).To(out)
    Example({a: A, b: B, out: expected}, model=model).AddVariations(*SIGNED, includeDefault=False)
