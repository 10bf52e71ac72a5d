# RELU, RELU1 and RELU6 on TENSOR_QUANT8_ASYMM_SIGNED (HAL 1.3): the output
# keeps the input's scale and zero point, and each operation clamps the int8
# values to its range quantized with them (RELU [zp, 127], RELU1
# [zp - 1/s, zp + 1/s], RELU6 [zp, zp + 6/s], within [-128, 127]).
# Golden values: conformance/specs/oracles/signed_a_oracle.py ("relu", "relu1",
# "relu6"), which also checks each quantized golden against that clamp.
#   zp_neg (0.25, -112): -4.0 is byte -128, RELU's floor -112;
#   zp_zero (0.125, 0): RELU1 clamps to [-8, 8], RELU6 to [0, 48];
#   zp_pos (0.125, 47): 10.0 is byte 127, RELU6's ceiling 95.
X = [-4.0, -1.5, -1.0, -0.25, 0.0, 0.5, 1.0, 1.25, 3.0, 6.0, 7.5, 10.0]
QUANTS = [("zp_neg", 0.25, -112), ("zp_zero", 0.125, 0), ("zp_pos", 0.125, 47)]


def signed(i, o):
    return [
        DataTypeConverter(name=name).Identify({
            i: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
            o: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
        })
        for name, scale, zero_point in QUANTS
    ]


i1 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
o1 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
Model("relu").Operation("RELU", i1).To(o1)
Example({
    i1: X,
    o1: [0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 1.0, 1.25, 3.0, 6.0, 7.5, 10.0],
}).AddVariations(*signed(i1, o1), includeDefault=False)

i2 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
o2 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
Model("relu1").Operation("RELU1", i2).To(o2)
Example({
    i2: X,
    o2: [-1.0, -1.0, -1.0, -0.25, 0.0, 0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
}).AddVariations(*signed(i2, o2), includeDefault=False)

i3 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
o3 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
Model("relu6").Operation("RELU6", i3).To(o3)
Example({
    i3: X,
    o3: [0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 1.0, 1.25, 3.0, 6.0, 6.0, 6.0],
}).AddVariations(*signed(i3, o3), includeDefault=False)

# The zero points at the ends of int8 (oracle: "relu zp -128", "relu zp 127", and the
# same for relu1 and relu6), scale 0.25. At zero point -128 only values >= 0 exist
# (63.75 is byte 127); at zero point 127 only values <= 0 (-63.75 is byte -128), and
# RELU and RELU6 collapse to the single byte 127 while RELU1 keeps [123, 127].
LOW = [0.0, 0.25, 1.0, 5.75, 6.0, 63.75]
HIGH = [-63.75, -6.0, -1.0, -0.75, -0.25, 0.0]
EDGES = [
    ("RELU", [0.0, 0.25, 1.0, 5.75, 6.0, 63.75], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ("RELU1", [0.0, 0.25, 1.0, 1.0, 1.0, 1.0], [-1.0, -1.0, -1.0, -0.75, -0.25, 0.0]),
    ("RELU6", [0.0, 0.25, 1.0, 5.75, 6.0, 6.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
]
for operation, low_out, high_out in EDGES:
    ie = Input("in", "TENSOR_FLOAT32", "{6}")
    oe = Output("out", "TENSOR_FLOAT32", "{6}")
    edges = Model(operation.lower() + "_edges").Operation(operation, ie).To(oe)
    Example({ie: LOW, oe: low_out}, model=edges, name="zp_min").AddVariations(
        DataTypeConverter(name="signed").Identify({
            ie: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -128),
            oe: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, -128),
        }), includeDefault=False)
    Example({ie: HIGH, oe: high_out}, model=edges, name="zp_max").AddVariations(
        DataTypeConverter(name="signed").Identify({
            ie: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 127),
            oe: ("TENSOR_QUANT8_ASYMM_SIGNED", 0.25, 127),
        }), includeDefault=False)
