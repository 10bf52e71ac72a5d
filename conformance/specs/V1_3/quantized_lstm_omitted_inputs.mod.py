# QUANTIZED_LSTM (HAL 1.3) with its optional inputs left out as model inputs that the
# request gives no value (sent with has_no_value): declared zero-sized ("zero_sized",
# every dimension 0, the slot's rank kept) or with their full shape ("full_shape").
# quantized_lstm.mod.py runs the same cases with NO_VALUE constants; the outputs do not
# depend on how an input is left out. Cases: cifg_layer_norm (inputs 1, 5, 9-12, 16, 17,
# 20 omitted), cifg_peephole_layer_norm_projection (1, 5, 9, 12, 17, 20) and
# no_layer_norm (9-11, 16, 17, 20-23), with the weights as constants; peephole_layer_norm
# (16, 17) with every weight a model input too.
#
# Golden values: conformance/specs/oracles/qlstm_oracle.py, the same cases as
# quantized_lstm.mod.py.

Q8AS = "TENSOR_QUANT8_ASYMM_SIGNED"
Q8S = "TENSOR_QUANT8_SYMM"
Q16S = "TENSOR_QUANT16_SYMM"
I32 = "TENSOR_INT32"
GATES = "ifco"


def optional_tensors(Q, sizes):
    """Input slot -> (key of W, operand type) for the tensors of slots 1-17 and 20-23."""
    batch, inputs, units, output = sizes
    slots = {}
    for k, g in enumerate(GATES):
        slots[1 + k] = ("x" + g, (Q8S, [units, inputs], Q.get("wx_" + g, 0.01), 0))
        slots[5 + k] = ("h" + g, (Q8S, [units, output], Q.get("wh_" + g, 0.01), 0))
        slots[12 + k] = ("b" + g, (I32, [units], 0.0, 0))
        slots[20 + k] = ("ln_" + g, (Q16S, [units], Q.get("ln_" + g, 2.0**-10), 0))
    for slot, g in ((9, "i"), (10, "f"), (11, "o")):
        slots[slot] = ("c" + g, (Q16S, [units], Q.get("wc_" + g, 2.0**-10), 0))
    slots[16] = ("proj", (Q8S, [output, units], Q.get("proj", 0.01), 0))
    slots[17] = ("proj_bias", (I32, [output], 0.0, 0))
    return slots


def qlstm_test(name, sizes, Q, W, steps, weights="constant", omission="no_value"):
    """One model and its Example: each step is one feed; ``weights`` "constant" (but the
    16-bit ones, which the generator does not emit as constants) or "input";
    an omitted tensor (a key missing from W) is a NO_VALUE constant ("no_value") or a
    model input given [] (declared zero-sized "zero_sized", or with its shape "full_shape")."""
    batch, inputs, units, output = sizes
    given = {}
    tensors = {}
    for slot, (key, type_) in optional_tensors(Q, sizes).items():
        label = name + "_" + key
        if key in W:
            if weights == "constant" and type_[0] != Q16S:
                tensors[slot] = Parameter(label, type_, W[key])
            else:
                tensors[slot] = Input(label, type_)
                given[tensors[slot]] = W[key]
        elif omission == "no_value":
            tensors[slot] = Omitted(label, type_)
        else:
            if omission == "zero_sized":
                type_ = (type_[0], [0] * len(type_[1]), type_[2], type_[3])
            tensors[slot] = Input(label, type_)
            given[tensors[slot]] = []
    x = Input(name + "_x", (Q8AS, [batch, inputs], Q["x"][0], Q["x"][1]))
    h_in = Input(name + "_h_in", (Q8AS, [batch, output], Q["h"][0], Q["h"][1]))
    c_in = Input(name + "_c_in", (Q16S, [batch, units], Q["c"], 0))
    scalars = [
        Float32Scalar(name + "_cell_clip", Q["cell_clip"]),
        Float32Scalar(name + "_projection_clip", Q["proj_clip"]),
    ] + [
        # the input gate's is unused with CIFG: the forget gate's is given there
        Float32Scalar(name + "_intermediate_scale_" + g, Q.get("inter_" + g, Q["inter_f"]))
        for g in GATES
    ] + [
        Int32Scalar(name + "_hidden_zero_point", Q["hidden"][0]),
        Float32Scalar(name + "_hidden_scale", Q["hidden"][1]),
    ]
    h_out = Output(name + "_h_out", (Q8AS, [batch, output], Q["h"][0], Q["h"][1]))
    c_out = Output(name + "_c_out", (Q16S, [batch, units], Q["c"], 0))
    out = Output(name + "_out", (Q8AS, [batch, output], Q["h"][0], Q["h"][1]))
    ins = [x] + [tensors[s] for s in range(1, 18)] + [h_in, c_in]
    ins += [tensors[s] for s in range(20, 24)] + scalars
    model = Model(name).Operation("QUANTIZED_LSTM", *ins).To(h_out, c_out, out)
    feeds = []
    for step in steps:
        feed = {x: step["x"], h_in: step["h_in"], c_in: step["c_in"],
                h_out: step["h_out"], c_out: step["c_out"], out: step["h_out"]}
        feed.update(given)
        feeds.append(feed)
    Example(*feeds, model=model)


# cifg_layer_norm
SIZES = (2, 3, 4, 4)
Q = {'x': (0.0078125, 3), 'h': (0.0078125, -2), 'c': 0.00048828125, 'cs': -11, 'cell_clip': 0.0, 'proj_clip': 0.0, 'hidden': (2, 0.0078125), 'wx_f': 0.007500000000000001, 'wh_f': 0.00625, 'inter_f': 0.0008, 'ln_f': 0.0009765625, 'wx_c': 0.00875, 'wh_c': 0.0075, 'inter_c': 0.0009, 'ln_c': 0.000732421875, 'wx_o': 0.01, 'wh_o': 0.00875, 'inter_o': 0.001, 'ln_o': 0.0009765625}
W = {
    'xf': [82, 86, -65, -45, 100, -45, -33, 95, 103, -86, -5, -60],
    'hf': [-107, -6, -17, -79, -77, -30, 105, -79, -93, -101, -32, 53, 8, -52, 60, 104],
    'bf': [-16730, 210047, -256690, -81121],
    'ln_f': [1362, 738, 1087, 1022],
    'xc': [-93, -72, -52, 97, 105, 61, -74, 72, -78, 63, -81, 42],
    'hc': [-110, 96, -101, 42, -78, -56, -54, 51, -64, 69, -33, 85, 70, -26, 104, 97],
    'bc': [-219367, 214282, -59313, -255238],
    'ln_c': [1387, 1170, 1142, 1255],
    'xo': [-43, 42, 40, 80, 72, 78, 67, -19, -28, -50, -103, 5],
    'ho': [39, -80, 26, 21, 69, -1, -77, 95, 32, 24, 16, -49, -17, 44, -13, 73],
    'bo': [164598, 175052, -248925, -24383],
    'ln_o': [1239, 1082, 979, 1191],
}
STEPS = [
    {'x': [40, 3, 97, -115, -101, -59], 'h_in': [-51, 64, 0, 36, -2, 86, -61, 20], 'c_in': [-6148, -2023, 2590, 1001, 3861, 3392, -5156, -4143], 'h_out': [-32, 8, 23, 5, 39, 14, -21, -107], 'c_out': [-3722, 193, 1785, 182, 2337, 962, -781, -3641]},
    {'x': [-21, -89, 105, 56, -3, -92], 'h_in': [-32, 8, 23, 5, 39, 14, -21, -107], 'c_in': [-3722, 193, 1785, 182, 2337, 962, -781, -3641], 'h_out': [4, -9, 14, 36, 36, 2, 32, -36], 'c_out': [196, -306, 981, 733, 2233, 177, 713, -2365]},
]
qlstm_test("cifg_layer_norm_zero_sized", SIZES, Q, W, STEPS, omission="zero_sized")
qlstm_test("cifg_layer_norm_full_shape", SIZES, Q, W, STEPS, omission="full_shape")


# cifg_peephole_layer_norm_projection
SIZES = (2, 2, 3, 2)
Q = {'x': (0.0078125, 3), 'h': (0.0078125, -2), 'c': 0.00048828125, 'cs': -11, 'cell_clip': 0.0, 'proj_clip': 0.0, 'hidden': (0, 0.0625), 'wx_f': 0.007500000000000001, 'wh_f': 0.00625, 'inter_f': 0.0008, 'ln_f': 0.0009765625, 'wc_f': 0.0009765625, 'wx_c': 0.00875, 'wh_c': 0.0075, 'inter_c': 0.0009, 'ln_c': 0.000732421875, 'wx_o': 0.01, 'wh_o': 0.00875, 'inter_o': 0.001, 'ln_o': 0.0009765625, 'wc_o': 0.0009765625, 'proj': 0.004}
W = {
    'xf': [60, -6, 6, -42, 47, -9],
    'hf': [-72, 26, 103, 17, -29, -108],
    'bf': [240172, 218098, -215194],
    'ln_f': [738, 854, 1326],
    'cf': [-78, -46, -60],
    'xc': [97, 23, 66, 13, 47, -33],
    'hc': [-31, 15, 25, 40, -90, -33],
    'bc': [-108998, 49652, 294104],
    'ln_c': [1343, 738, 1430],
    'xo': [-84, 6, -107, -25, -30, -45],
    'ho': [-83, -95, -33, 73, -58, -101],
    'bo': [-37076, 5509, 299922],
    'ln_o': [868, 1257, 1425],
    'co': [388, 112, -341],
    'proj': [25, -45, 17, 94, 92, -19],
}
STEPS = [
    {'x': [28, 61, -85, 63], 'h_in': [-55, 11, 31, 57], 'c_in': [-8220, -7511, -9771, -7826, -3067, -182], 'h_out': [-4, -23, 7, -40], 'c_out': [-5516, -2881, -5360, -5091, -1917, -1361]},
    {'x': [-109, -33, -87, -96], 'h_in': [-4, -23, 7, -40], 'c_in': [-5516, -2881, -5360, -5091, -1917, -1361], 'h_out': [4, -32, 7, -33], 'c_out': [-2951, -2217, -1809, -2839, -1552, 498]},
]
qlstm_test("cifg_peephole_layer_norm_projection_zero_sized", SIZES, Q, W, STEPS, omission="zero_sized")
qlstm_test("cifg_peephole_layer_norm_projection_full_shape", SIZES, Q, W, STEPS, omission="full_shape")


# no_layer_norm
SIZES = (2, 3, 3, 3)
Q = {'x': (0.0078125, 3), 'h': (0.0078125, -2), 'c': 0.00048828125, 'cs': -11, 'cell_clip': 0.0, 'proj_clip': 0.0, 'hidden': (0, 0.0078125), 'wx_i': 0.00625, 'wh_i': 0.005, 'inter_i': 0.000244140625, 'wx_f': 0.007500000000000001, 'wh_f': 0.00625, 'inter_f': 0.000244140625, 'wx_c': 0.00875, 'wh_c': 0.0075, 'inter_c': 0.000244140625, 'wx_o': 0.01, 'wh_o': 0.00875, 'inter_o': 0.000244140625}
W = {
    'xi': [64, -10, -72, -2, 79, 60, 7, 73, 90],
    'hi': [59, -88, 43, -39, -46, -46, 7, 44, -29],
    'bi': [297075, 91558, -35871],
    'xf': [-79, -58, 23, 105, 51, -106, 109, -54, 35],
    'hf': [-88, -109, -39, 42, 49, -89, -16, -92, 32],
    'bf': [97446, 161448, 257898],
    'xc': [-9, -45, -68, -95, 71, -39, -106, 88, 76],
    'hc': [107, 72, -88, 1, -103, 22, 36, 38, -4],
    'bc': [-37785, 295604, -251021],
    'xo': [79, 15, -96, 86, -87, -35, -14, 55, -15],
    'ho': [-71, 51, 33, -103, 59, -77, 46, 41, -94],
    'bo': [248405, -11927, 237477],
}
STEPS = [
    {'x': [53, 104, 105, -109, -77, -32], 'h_in': [3, 61, -53, -43, 14, 16], 'c_in': [-3480, -2948, 1297, -3196, 5136, -1638], 'h_out': [-32, -49, 60, -43, 49, -13], 'c_out': [-1345, -2412, 1695, -2038, 1836, -528]},
    {'x': [67, 113, 84, 20, 18, -28], 'h_in': [-32, -49, 60, -43, 49, -13], 'c_in': [-1345, -2412, 1695, -2038, 1836, -528], 'h_out': [-41, -13, 36, -32, 33, -13], 'c_out': [-1518, -722, 1623, -796, 838, -403]},
]
qlstm_test("no_layer_norm_zero_sized", SIZES, Q, W, STEPS, omission="zero_sized")
qlstm_test("no_layer_norm_full_shape", SIZES, Q, W, STEPS, omission="full_shape")


# peephole_layer_norm
SIZES = (2, 3, 3, 3)
Q = {'x': (0.0078125, 3), 'h': (0.0078125, -2), 'c': 0.00048828125, 'cs': -11, 'cell_clip': 0.0, 'proj_clip': 0.0, 'hidden': (0, 0.0078125), 'wx_i': 0.00625, 'wh_i': 0.005, 'inter_i': 0.0007, 'ln_i': 0.0009765625, 'wc_i': 0.0009765625, 'wx_f': 0.007500000000000001, 'wh_f': 0.00625, 'inter_f': 0.0008, 'ln_f': 0.0009765625, 'wc_f': 0.0009765625, 'wx_c': 0.00875, 'wh_c': 0.0075, 'inter_c': 0.0009, 'ln_c': 0.000732421875, 'wx_o': 0.01, 'wh_o': 0.00875, 'inter_o': 0.001, 'ln_o': 0.0009765625, 'wc_o': 0.0009765625}
W = {
    'xi': [-66, 36, -97, 75, 108, 65, 69, -70, 28],
    'hi': [72, 68, -35, -37, 44, 98, 36, 67, -106],
    'bi': [76516, 237357, -140956],
    'ln_i': [764, 1477, 826],
    'ci': [-182, 118, -27],
    'xf': [-54, 37, 34, -102, -19, -89, -89, 35, -22],
    'hf': [-29, 99, 91, 41, 0, -110, -32, -25, 39],
    'bf': [175488, 219312, 134094],
    'ln_f': [891, 816, 808],
    'cf': [367, -79, -206],
    'xc': [32, -41, 56, -27, 84, -16, -51, 13, 35],
    'hc': [-41, -98, 74, 73, -94, 39, -31, 37, -8],
    'bc': [-71288, 64608, -24311],
    'ln_c': [768, 1333, 829],
    'xo': [-31, 107, -1, -47, 86, 62, -90, 28, -30],
    'ho': [14, 72, 50, 28, 98, 70, 14, -29, 35],
    'bo': [-71608, -122846, -24091],
    'ln_o': [1012, 720, 1482],
    'co': [-425, -352, -19],
}
STEPS = [
    {'x': [-95, 75, 61, -45, 115, 77], 'h_in': [3, 24, 69, 67, 20, 98], 'c_in': [1701, -11756, -10775, -4225, -3334, -3343], 'h_out': [2, -76, -24, -80, 16, -12], 'c_out': [64, -2572, -7566, -3119, 472, -2557]},
    {'x': [-122, -74, -60, -72, 20, 107], 'h_in': [2, -76, -24, -80, 16, -12], 'c_in': [64, -2572, -7566, -3119, 472, -2557], 'h_out': [-14, -27, -112, -39, -51, -12], 'c_out': [-720, -1482, -5333, -1570, -1373, -1562]},
]
qlstm_test("peephole_layer_norm_zero_sized", SIZES, Q, W, STEPS, weights="input", omission="zero_sized")
qlstm_test("peephole_layer_norm_full_shape", SIZES, Q, W, STEPS, weights="input", omission="full_shape")
