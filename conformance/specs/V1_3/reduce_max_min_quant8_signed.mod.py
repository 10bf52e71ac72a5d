# REDUCE_MAX and REDUCE_MIN on TENSOR_QUANT8_ASYMM_SIGNED (HAL 1.3): the output
# keeps the input's scale and zero point, and the int8 values are compared as they
# are. Golden values: conformance/specs/oracles/signed_a_oracle.py ("reduce_max
# ...", "reduce_min ..."), which also compares the int8 values of every variation.
# Input [2, 3, 2] = [[[1, -2], [3.5, 0], [-1, 3.5]], [[-4, 2.5], [6, -0.5], [6, 1]]]
# at zp_neg (0.5, -120) (-4.0 is byte -128), zp_zero (0.25, 0) and zp_pos
# (0.25, 103) (6.0 is byte 127).
X = [1.0, -2.0, 3.5, 0.0, -1.0, 3.5, -4.0, 2.5, 6.0, -0.5, 6.0, 1.0]
QUANTS = [("zp_neg", 0.5, -120), ("zp_zero", 0.25, 0), ("zp_pos", 0.25, 103)]


def signed(i, o):
    return [
        DataTypeConverter(name=name).Identify({
            i: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
            o: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point),
        })
        for name, scale, zero_point in QUANTS
    ]


# REDUCE_MAX over axis 1: [3.5, 3.5, 6, 2.5].
i1 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o1 = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model("max_axis1").Operation("REDUCE_MAX", i1, [1], False).To(o1)
Example({i1: X, o1: [3.5, 3.5, 6.0, 2.5]}).AddVariations(*signed(i1, o1), includeDefault=False)

# REDUCE_MAX over axes 0 and -1, dims kept: [2.5, 6, 6] of shape [1, 3, 1].
i2 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o2 = Output("out", "TENSOR_FLOAT32", "{1, 3, 1}")
Model("max_axes_keep").Operation("REDUCE_MAX", i2, [0, -1], True).To(o2)
Example({i2: X, o2: [2.5, 6.0, 6.0]}).AddVariations(*signed(i2, o2), includeDefault=False)

# REDUCE_MIN over axis 1: [-1, -2, -4, -0.5].
i3 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o3 = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model("min_axis1").Operation("REDUCE_MIN", i3, [1], False).To(o3)
Example({i3: X, o3: [-1.0, -2.0, -4.0, -0.5]}).AddVariations(*signed(i3, o3), includeDefault=False)

# REDUCE_MIN over every axis (given as [2, 0, 1]), dims dropped: [-4] of shape [1].
i4 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o4 = Output("out", "TENSOR_FLOAT32", "{1}")
Model("min_all").Operation("REDUCE_MIN", i4, [2, 0, 1], False).To(o4)
Example({i4: X, o4: [-4.0]}).AddVariations(*signed(i4, o4), includeDefault=False)
