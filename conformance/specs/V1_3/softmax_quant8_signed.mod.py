# SOFTMAX on TENSOR_QUANT8_ASYMM_SIGNED (HAL 1.3): beta stays a FLOAT32 scalar
# and the output quantization is fixed at scale 1/256, zero point -128 (the
# TENSOR_QUANT8_ASYMM one moved by 128), so q = 256 * p - 128.
# Golden values: conformance/specs/oracles/signed_a_oracle.py ("softmax beta 1",
# "softmax axis 1 beta 0.5"), which also checks each quantized golden (round half
# away from zero of 256 * p, minus 128; every one at least 0.11 from a tie).

# Rank 2, the last axis (no axis input), beta 1: rows [1, 2, 3, 4] and
# [-1, -1, 0.5, -3] (a tie) -> bytes [-120, -106, -67, 37], [-89, -89, 45, -123].
# Input quantizations: zp_neg (0.25, -100), zp_zero (0.125, 0), zp_pos (0.5, 118)
# (4.0 is byte 126).
i1 = Input("in", "TENSOR_FLOAT32", "{2, 4}")
o1 = Output("out", "TENSOR_FLOAT32", "{2, 4}")
Model("last_axis").Operation("SOFTMAX", i1, 1.0).To(o1)


def signed(i, o, quants):
    return [
        DataTypeConverter(name=name).Identify({
            i: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
            o: ("TENSOR_QUANT8_ASYMM_SIGNED", 1.0 / 256, -128),
        })
        for name, scale, zero_point in quants
    ]


Example({
    i1: [1.0, 2.0, 3.0, 4.0, -1.0, -1.0, 0.5, -3.0],
    o1: [0.0320586033, 0.0871443187, 0.236882818, 0.64391426,
         0.151125332, 0.151125332, 0.677296747, 0.0204525896],
}).AddVariations(
    *signed(i1, o1, [("zp_neg", 0.25, -100), ("zp_zero", 0.125, 0), ("zp_pos", 0.5, 118)]),
    includeDefault=False)

# Rank 3 along axis 1 (not the last one), beta 0.5: each of the four lines of three
# is normalised; 0.946 is byte 114, 0.0064 byte -126.
# Input quantizations: zp_neg (0.25, -108) (-5.0 is byte -128), zp_zero (0.5, 0),
# zp_pos (0.125, 79) (6.0 is byte 127).
i2 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o2 = Output("out", "TENSOR_FLOAT32", "{2, 3, 2}")
Model("axis1").Operation("SOFTMAX", i2, 0.5, 1).To(o2)
Example({
    i2: [0.0, 4.0, 2.0, -2.0, 1.0, 6.0, -5.0, 3.0, 5.0, 3.0, -1.0, 2.5],
    o2: [0.186323723, 0.265387929, 0.506480391, 0.013212887, 0.307195886, 0.721399184,
         0.00637746092, 0.359867467, 0.946499123, 0.359867467, 0.0471234165, 0.280265065],
}).AddVariations(
    *signed(i2, o2, [("zp_neg", 0.25, -108), ("zp_zero", 0.5, 0), ("zp_pos", 0.125, 79)]),
    includeDefault=False)
