# Zero-sized tensors through the shape operations that accept them in HAL 1.2
# (CONCATENATION, TRANSPOSE, SLICE). A SLICE of size 0 makes the zero-sized
# intermediate: types.hal forbids a size of 0, the Android 10 reference accepts it
# (docs/operations.md, SLICE (86)), and this suite follows the reference.
# Golden values by hand: every model's output is x itself, or x's last row.
x = [1.0, -2.0, 3.5, 0.0, 4.0, -0.5]

# SLICE [2, 3] from [0, 0] size [0, -1] -> [0, 3]; CONCATENATION of it with x on
# axis 0 contributes no rows -> x.
i1 = Input("x", "TENSOR_FLOAT32", "{2, 3}")
z1 = Internal("empty", "TENSOR_FLOAT32", "{0, 3}")
o1 = Output("output", "TENSOR_FLOAT32", "{2, 3}")
Model("concatenation").Operation("SLICE", i1, [0, 0], [0, -1]).To(z1).Operation(
    "CONCATENATION", z1, i1, 0).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    z1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
})
Example({i1: x, o1: x}).AddVariations("relaxed", "float16", quant8)

# TRANSPOSE of the [0, 3] slice gives [3, 0]; a SLICE of it from [0, 0] with size
# [-1, 0] keeps [3, 0]; transposed back to [0, 3] and concatenated after x on axis 0
# it adds no rows -> x.
i2 = Input("x", "TENSOR_FLOAT32", "{2, 3}")
z2 = Internal("empty", "TENSOR_FLOAT32", "{0, 3}")
t2 = Internal("transposed", "TENSOR_FLOAT32", "{3, 0}")
s2 = Internal("sliced", "TENSOR_FLOAT32", "{3, 0}")
u2 = Internal("back", "TENSOR_FLOAT32", "{0, 3}")
o2 = Output("output", "TENSOR_FLOAT32", "{2, 3}")
Model("transpose").Operation("SLICE", i2, [0, 0], [0, -1]).To(z2).Operation(
    "TRANSPOSE", z2, [1, 0]).To(t2).Operation(
    "SLICE", t2, [0, 0], [-1, 0]).To(s2).Operation(
    "TRANSPOSE", s2, [1, 0]).To(u2).Operation(
    "CONCATENATION", i2, u2, 0).To(o2)
Example({i2: x, o2: x}).AddVariations("float16")

# The slice of a zero-sized tensor by an empty range along axis 1 keeps its 0 rows:
# SLICE([0, 3], [0, 1], [-1, 2]) -> [0, 2]; concatenated with x's last row sliced to
# [1, 2] ([1, 2] from [1, 1]) -> [1, 2] = [4.0, -0.5].
i3 = Input("x", "TENSOR_FLOAT32", "{2, 3}")
z3 = Internal("empty", "TENSOR_FLOAT32", "{0, 3}")
e3 = Internal("empty2", "TENSOR_FLOAT32", "{0, 2}")
r3 = Internal("row", "TENSOR_FLOAT32", "{1, 2}")
o3 = Output("output", "TENSOR_FLOAT32", "{1, 2}")
Model("slice").Operation("SLICE", i3, [0, 0], [0, -1]).To(z3).Operation(
    "SLICE", z3, [0, 1], [-1, 2]).To(e3).Operation(
    "SLICE", i3, [1, 1], [1, 2]).To(r3).Operation(
    "CONCATENATION", e3, r3, 0).To(o3)
Example({i3: x, o3: [4.0, -0.5]}).AddVariations("float16")
