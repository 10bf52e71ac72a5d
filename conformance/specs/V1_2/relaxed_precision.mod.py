# Relaxed precision: models that may compute their float32 operations in float16
# (relaxComputationFloat32toFloat16), with data that float16's 11 significant bits hold
# exactly and a coarser format does not, and results that turn a coarser rounding of
# the inputs into a large error: cancellation in SUB and ADD, integer outputs of CAST
# and ARGMAX, and comparisons of nearly equal values. Computed in float16 every case
# below is exact; with 8 significant bits (bfloat16) each model has elements that
# miss by far more than the relaxed tolerance (5 * 2**-10 absolute plus as much
# relative), or flip an integer or a truth value. Golden values by hand, below.
#
# Float16 steps: 2**-10 in [1, 2), 2**-8 in [4, 8), 2**-5 in [32, 64), 2**-4 in
# [64, 128), 2**-3 in [128, 256), 2**-2 in [256, 512), 2**-1 in [512, 1024). With 8
# significant bits the steps are 8 times coarser (e.g. 0.5 in [64, 128)), and a value
# half way rounds to the even neighbour.

# 1. SUB: a - b = [100.25 - 100, 300.5 - 300, 64.0625 - 64, 1000.5 - 1000,
#    1.001953125 - 1] = [0.25, 0.5, 0.0625, 0.5, 0.001953125] (1.001953125 = 1 + 2**-9).
#    With 8 bits 100.25 -> 100, 300.5 -> 300, 64.0625 -> 64, 1000.5 -> 1000 (step 4),
#    1 + 2**-9 -> 1: every difference becomes 0.
a1 = Input("a", "TENSOR_FLOAT32", "{5}")
b1 = Input("b", "TENSOR_FLOAT32", "{5}")
o1 = Output("out", "TENSOR_FLOAT32", "{5}")
Model("sub").Operation("SUB", a1, b1, 0).To(o1)
Example({
    a1: [100.25, 300.5, 64.0625, 1000.5, 1.001953125],
    b1: [100.0, 300.0, 64.0, 1000.0, 1.0],
    o1: [0.25, 0.5, 0.0625, 0.5, 0.001953125],
}).AddVariations("relaxed", includeDefault=False)

# 2. ADD of nearly opposite values: [300.5 - 300, 100.25 - 100, -64.0625 + 64] =
#    [0.5, 0.25, -0.0625]; with 8 bits every sum is 0.
a2 = Input("a", "TENSOR_FLOAT32", "{3}")
b2 = Input("b", "TENSOR_FLOAT32", "{3}")
o2 = Output("out", "TENSOR_FLOAT32", "{3}")
Model("add").Operation("ADD", a2, b2, 0).To(o2)
Example({
    a2: [300.5, 100.25, -64.0625],
    b2: [-300.0, -100.0, 64.0],
    o2: [0.5, 0.25, -0.0625],
}).AddVariations("relaxed", includeDefault=False)

# 3. CAST to TENSOR_INT32 truncates toward zero: [255.75, 127.875, 63.9375, 515.5,
#    -99.75, 31.96875] -> [255, 127, 63, 515, -99, 31]. With 8 bits the inputs round to
#    [256, 128, 64, 516, -100, 32] first.
i3 = Input("in", "TENSOR_FLOAT32", "{6}")
o3 = Output("out", "TENSOR_INT32", "{6}")
Model("cast").Operation("CAST", i3).To(o3)
Example({
    i3: [255.75, 127.875, 63.9375, 515.5, -99.75, 31.96875],
    o3: [255, 127, 63, 515, -99, 31],
}).AddVariations("relaxed", includeDefault=False)

# 4. ARGMAX along axis 1 of four rows of two: [100.5, 100.625] -> 1;
#    [3.00390625, 3.0078125] -> 1; [-50.0625, -50.03125] -> 1; [7.0, 6.9921875] -> 0.
#    With 8 bits each of the first three rows becomes a tie ([100.5, 100.5], [3.0, 3.0],
#    [-50.0, -50.0]) and a tie answers the first index, 0.
i4 = Input("in", "TENSOR_FLOAT32", "{4, 2}")
o4 = Output("out", "TENSOR_INT32", "{4}")
Model("argmax").Operation("ARGMAX", i4, 1).To(o4)
Example({
    i4: [100.5, 100.625, 3.00390625, 3.0078125, -50.0625, -50.03125, 7.0, 6.9921875],
    o4: [1, 1, 1, 0],
}).AddVariations("relaxed", includeDefault=False)

# 5. GREATER and EQUAL of nearly equal values: a = [100.0625, 300.25, 1.001953125,
#    -20.03125], b = [100.0, 300.5, 1.0, -20.0]: a > b is [1, 0, 1, 0] and a == b is
#    [0, 0, 0, 0]. With 8 bits both sides round to [100, 300, 1, -20]: a > b is all 0,
#    a == b all 1.
a5 = Input("a", "TENSOR_FLOAT32", "{4}")
b5 = Input("b", "TENSOR_FLOAT32", "{4}")
o5 = Output("out", "TENSOR_BOOL8", "{4}")
Model("greater").Operation("GREATER", a5, b5).To(o5)
Example({
    a5: [100.0625, 300.25, 1.001953125, -20.03125],
    b5: [100.0, 300.5, 1.0, -20.0],
    o5: [True, False, True, False],
}).AddVariations("relaxed", includeDefault=False)

a6 = Input("a", "TENSOR_FLOAT32", "{4}")
b6 = Input("b", "TENSOR_FLOAT32", "{4}")
o6 = Output("out", "TENSOR_BOOL8", "{4}")
Model("equal").Operation("EQUAL", a6, b6).To(o6)
Example({
    a6: [100.0625, 300.25, 1.001953125, -20.03125],
    b6: [100.0, 300.5, 1.0, -20.0],
    o6: [False, False, False, False],
}).AddVariations("relaxed", includeDefault=False)
