# QUANTIZED_LSTM (HAL 1.3): one step of the integer LSTM (signed 8-bit input and output
# state, 8-bit symmetric weights, 16-bit cell state at scale 2**-11, int32 gate biases),
# in the configurations the operation defines: CIFG with layer norm; layer norm with
# projection (with bias) and both clips; CIFG with layer norm and projection; peephole
# with layer norm (also with every weight a model input); CIFG with peephole, layer norm
# and projection without bias; no layer norm at all; and CIFG with layer norm and a
# hidden scale of 2**-13, which clamps all but one hidden value to the int8 range.
# Omitted optional inputs are NO_VALUE constants here (quantized_lstm_omitted_inputs.mod.py
# sends them as model inputs without a value). Each model has two examples of batch 2 or
# 3: the second example's state inputs are the first's state outputs (one step per
# execution, as the operation defines; the state is carried by the examples' literals).
#
# Android 11's behaviour is followed where the definition is silent or differs
# (docs/operations.md, QUANTIZED_LSTM (95)): without layer norm the gate biases are not
# added (case no_layer_norm, whose biases are non-zero); the hidden zero point is
# subtracted after the hidden rescale (cifg_layer_norm uses 2, layer_norm_projection -3);
# the projection clip is divided by the projection weights' scale. The peephole of the
# input and forget gates reads the previous cell state (the HAL's meaning; Android 11
# reads its output buffer there). Clips are given as 0.0 where unused, never omitted.
# The 16-bit peephole and layer-norm weights are model inputs everywhere (the generator
# emits no TENSOR_QUANT16_SYMM constant, docs/spec-language.md).
# The projection cases keep the hidden state eight times coarser than the output state
# (2**-4 against 2**-7), so that one unit of hidden state moves the projected output by
# several units.
#
# Golden values: conformance/specs/oracles/qlstm_oracle.py (its plain-integer fixed
# point, bit for bit), cases cifg_layer_norm, layer_norm_projection,
# cifg_layer_norm_projection, peephole_layer_norm, cifg_peephole_layer_norm_projection,
# no_layer_norm, saturated_hidden; the weights and inputs are drawn there from seeded
# generators. tests/suite/test_hal13_faults.py runs these examples against a driver whose
# hidden-state rescale truncates ("qlstm_oracle.py --fault" lists what that changes).

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
qlstm_test("cifg_layer_norm", SIZES, Q, W, STEPS)


# layer_norm_projection
SIZES = (2, 3, 4, 3)
Q = {'x': (0.0078125, 3), 'h': (0.0078125, -2), 'c': 0.00048828125, 'cs': -11, 'cell_clip': 3.0, 'proj_clip': 0.3, 'hidden': (-3, 0.0625), 'wx_i': 0.00625, 'wh_i': 0.005, 'inter_i': 0.0007, 'ln_i': 0.0009765625, 'wx_f': 0.007500000000000001, 'wh_f': 0.00625, 'inter_f': 0.0008, 'ln_f': 0.0009765625, 'wx_c': 0.00875, 'wh_c': 0.0075, 'inter_c': 0.0009, 'ln_c': 0.000732421875, 'wx_o': 0.01, 'wh_o': 0.00875, 'inter_o': 0.001, 'ln_o': 0.0009765625, 'proj': 0.004}
W = {
    'xi': [-81, 62, -98, 6, -62, -101, -68, -100, 79, -102, 17, -110],
    'hi': [1, -11, -99, -46, -81, -41, -105, -78, 8, -102, -3, -43],
    'bi': [208483, 215316, -225081, -294251],
    'ln_i': [1009, 1437, 1370, 1142],
    'xf': [-88, -76, 63, 101, 100, -5, 77, -39, -15, -98, -52, -82],
    'hf': [-27, -66, -88, -100, 30, 64, 27, -72, 62, 11, -26, -36],
    'bf': [43929, 227792, 7540, -241748],
    'ln_f': [1158, 1250, 1305, 1413],
    'xc': [85, -25, 94, -71, -87, -76, 84, 49, -22, -100, -33, 9],
    'hc': [-8, 22, 53, -53, -11, 63, -84, 95, -83, -85, 56, 41],
    'bc': [-116856, 219087, 254436, -115096],
    'ln_c': [853, 932, 1107, 1458],
    'xo': [-57, -20, -16, 106, 50, -32, -19, 6, -17, 6, 71, 24],
    'ho': [-85, 91, 50, 63, 53, -93, 70, 71, 47, 83, -96, -57],
    'bo': [258706, 176818, -204002, 255711],
    'ln_o': [719, 1140, 1088, 1023],
    'proj': [10, -29, -87, -9, 95, 23, -8, 46, -50, 32, 65, -45],
    'proj_bias': [1175, -1986, 1020],
}
STEPS = [
    {'x': [-96, -128, -89, -10, 126, 83], 'h_in': [-71, 52, -45, -38, 67, 6], 'c_in': [146, -479, -2812, 3025, -4703, -6269, 5408, -11726], 'h_out': [43, -63, 22, 30, -75, 51], 'c_out': [-339, 732, -975, 3481, -1844, -5854, 2422, -2107]},
    {'x': [-34, 23, 20, 109, -103, -119], 'h_in': [43, -63, 22, 30, -75, 51], 'c_in': [-339, 732, -975, 3481, -1844, -5854, 2422, -2107], 'h_out': [48, -47, 3, 25, -75, 47], 'c_out': [17, 433, -1993, 2258, -358, -868, 1994, -1567]},
]
qlstm_test("layer_norm_projection", SIZES, Q, W, STEPS)


# cifg_layer_norm_projection
SIZES = (3, 2, 4, 2)
Q = {'x': (0.0078125, 3), 'h': (0.0078125, -2), 'c': 0.00048828125, 'cs': -11, 'cell_clip': 0.0, 'proj_clip': 0.0, 'hidden': (0, 0.0625), 'wx_f': 0.007500000000000001, 'wh_f': 0.00625, 'inter_f': 0.0008, 'ln_f': 0.0009765625, 'wx_c': 0.00875, 'wh_c': 0.0075, 'inter_c': 0.0009, 'ln_c': 0.000732421875, 'wx_o': 0.01, 'wh_o': 0.00875, 'inter_o': 0.001, 'ln_o': 0.0009765625, 'proj': 0.004}
W = {
    'xf': [-109, -51, -12, 68, -46, 68, 1, -48],
    'hf': [-93, -97, 47, 66, 30, -13, 58, 27],
    'bf': [-208313, 14138, -113529, 35757],
    'ln_f': [737, 938, 1379, 1029],
    'xc': [-38, -31, 83, -42, 49, 88, 64, 103],
    'hc': [46, -35, 90, -100, -6, 6, 38, -80],
    'bc': [-262747, 89397, 217142, 141170],
    'ln_c': [1406, 990, 1234, 912],
    'xo': [93, -90, 63, 92, 16, 86, 98, 71],
    'ho': [12, -91, 82, -66, -48, -93, 102, 3],
    'bo': [-157543, 19102, -286839, -76363],
    'ln_o': [1124, 1102, 1090, 1193],
    'proj': [-3, 96, -100, 54, -62, 98, -59, -78],
    'proj_bias': [533, 416],
}
STEPS = [
    {'x': [2, 113, -25, -89, -37, -26], 'h_in': [70, 83, -59, -84, 4, 41], 'c_in': [3390, -422, 3380, -6698, 7438, -2638, 1429, 9708, -9270, -11551, -3698, 10902], 'h_out': [-27, 19, 28, -15, 21, -2], 'c_out': [-484, -676, 2802, -2616, 5760, 265, -534, 4436, -4234, -5583, -177, 8092]},
    {'x': [-34, -87, 22, 11, 55, -17], 'h_in': [-27, 19, 28, -15, 21, -2], 'c_in': [-484, -676, 2802, -2616, 5760, 265, -534, 4436, -4234, -5583, -177, 8092], 'h_out': [11, 22, 50, 0, 17, -17], 'c_out': [198, 354, 15, -2132, -381, 710, -688, 3298, -2291, -2513, -520, 6519]},
]
qlstm_test("cifg_layer_norm_projection", SIZES, Q, W, STEPS)


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
qlstm_test("peephole_layer_norm", SIZES, Q, W, STEPS)
qlstm_test("peephole_layer_norm_weights_as_inputs", SIZES, Q, W, STEPS, weights="input")


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
qlstm_test("cifg_peephole_layer_norm_projection", SIZES, Q, W, STEPS)


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
qlstm_test("no_layer_norm", SIZES, Q, W, STEPS)


# saturated_hidden
SIZES = (2, 3, 3, 3)
Q = {'x': (0.0078125, 3), 'h': (0.0078125, -2), 'c': 0.00048828125, 'cs': -11, 'cell_clip': 0.0, 'proj_clip': 0.0, 'hidden': (0, 0.0001220703125), 'wx_f': 0.007500000000000001, 'wh_f': 0.00625, 'inter_f': 0.0008, 'ln_f': 0.0009765625, 'wx_c': 0.00875, 'wh_c': 0.0075, 'inter_c': 0.0009, 'ln_c': 0.000732421875, 'wx_o': 0.01, 'wh_o': 0.00875, 'inter_o': 0.001, 'ln_o': 0.0009765625}
W = {
    'xf': [-105, -11, -27, 14, 31, 54, 2, 107, 67],
    'hf': [-94, 68, -75, 83, 38, -63, 9, -45, 78],
    'bf': [-44612, -257756, -139898],
    'ln_f': [1260, 1454, 1200],
    'xc': [-3, 12, 85, -44, 93, -74, -86, 98, 71],
    'hc': [81, 41, -91, 35, -50, 85, 54, 88, -93],
    'bc': [-197090, -112258, -2445],
    'ln_c': [738, 1410, 776],
    'xo': [-107, 69, -60, -7, 53, 24, -95, -2, 11],
    'ho': [91, 104, -107, -19, 90, -31, -11, -16, 46],
    'bo': [163379, 161362, 260109],
    'ln_o': [1054, 1345, 1346],
}
STEPS = [
    {'x': [72, -25, -54, 77, 76, -117], 'h_in': [72, -4, 54, -74, 45, -32], 'c_in': [-7623, 5249, -5787, 720, 9534, 5750], 'h_out': [-128, 127, -128, 127, 127, 127], 'c_out': [-1367, 4245, -4114, 413, 3343, 1481]},
    {'x': [75, 41, -1, 82, 65, 94], 'h_in': [-128, 127, -128, 127, 127, 127], 'c_in': [-1367, 4245, -4114, 413, 3343, 1481], 'h_out': [-128, 127, 79, 127, 127, 127], 'c_out': [-1064, 866, 112, 532, 1531, 1242]},
]
qlstm_test("saturated_hidden", SIZES, Q, W, STEPS)
