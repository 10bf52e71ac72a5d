# ARGMAX and ARGMIN on TENSOR_QUANT8_ASYMM_SIGNED inputs (HAL 1.3), TENSOR_INT32
# output: the int8 values are compared as they are (the order of the real values,
# the scale being positive); among equal values the lowest index wins.
# Golden values: conformance/specs/oracles/signed_a_oracle.py ("argmax axis 1",
# "argmin axis -1", "argmax axis 0"), which also compares the int8 values of every
# variation. Input [2, 3, 2] = [[[1, -2], [3.5, 0], [-1, 3.5]],
# [[-4, 2.5], [6, -0.5], [6, 1]]] at zp_neg (0.5, -120) (-4.0 is byte -128),
# zp_zero (0.25, 0) and zp_pos (0.25, 103) (6.0 is byte 127).
X = [1.0, -2.0, 3.5, 0.0, -1.0, 3.5, -4.0, 2.5, 6.0, -0.5, 6.0, 1.0]
QUANTS = [("zp_neg", 0.5, -120), ("zp_zero", 0.25, 0), ("zp_pos", 0.25, 103)]


def signed(i):
    return [
        DataTypeConverter(name=name).Identify({i: ("TENSOR_QUANT8_ASYMM_SIGNED", scale, zero_point)})
        for name, scale, zero_point in QUANTS
    ]


# ARGMAX along axis 1: [1, 3.5, -1] -> 1, [-2, 0, 3.5] -> 2, [-4, 6, 6] -> 1 (the
# tie's lower index), [2.5, -0.5, 1] -> 0.
i1 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o1 = Output("out", "TENSOR_INT32", "{2, 2}")
Model("argmax_axis1").Operation("ARGMAX", i1, 1).To(o1)
Example({i1: X, o1: [1, 2, 1, 0]}).AddVariations(*signed(i1), includeDefault=False)

# ARGMIN along axis -1 (the pairs): [1, 1, 0, 0, 1, 1].
i2 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o2 = Output("out", "TENSOR_INT32", "{2, 3}")
Model("argmin_axis_neg1").Operation("ARGMIN", i2, -1).To(o2)
Example({i2: X, o2: [1, 1, 0, 0, 1, 1]}).AddVariations(*signed(i2), includeDefault=False)

# ARGMAX along axis 0: [0, 1, 1, 0, 1, 0].
i3 = Input("in", "TENSOR_FLOAT32", "{2, 3, 2}")
o3 = Output("out", "TENSOR_INT32", "{3, 2}")
Model("argmax_axis0").Operation("ARGMAX", i3, 0).To(o3)
Example({i3: X, o3: [0, 1, 1, 0, 1, 0]}).AddVariations(*signed(i3), includeDefault=False)
