# RELU, RELU1 and RELU6 (HAL 1.0), float32 special values: NaN, +-inf and -0.0.
# docs/operations.md (RELU (19), which RELU1 (20) and RELU6 (21) follow with their
# bounds): a NaN input gives the lower bound (Android 10's float path,
# std::min(std::max(low, x), high), where every comparison with NaN is false).
# Golden values by hand:
#   RELU  max(0, x):        NaN -> 0, -inf -> 0, -0.0 -> 0, -1 -> 0, 2 -> 2
#   RELU1 clamp(x, -1, 1):  NaN -> -1, -inf -> -1, inf -> 1, -0.0 -> 0, 0.5 -> 0.5
#   RELU6 clamp(x, 0, 6):   NaN -> 0, -inf -> 0, inf -> 6, -0.0 -> 0, 7 -> 6
# (the sign of a zero result is not compared: -0.0 equals 0.)
# RELU(+inf) is left out: the docs give max(0, x) but do not state whether +inf
# stays inf or becomes FLT_MAX (the reference driver, as Android 10, clamps to
# FLT_MAX). The NaN through a fused activation (ADD, CONV_2D, ...) is not tested
# either: the Fused activation section of the docs does not state it.
# No relaxed or float16 variation: these are the float32 (HAL 1.0) forms.
i = Input("in", "TENSOR_FLOAT32", "{5}")
o = Output("out", "TENSOR_FLOAT32", "{5}")
Model("relu").Operation("RELU", i).To(o)
# No lifetime variations: the ADD that would write these inputs turns an
# infinity into +-FLT_MAX (docs/operations.md, ADD).
Example({
    i: [float("nan"), float("-inf"), -0.0, -1.0, 2.0],
    o: [0.0, 0.0, 0.0, 0.0, 2.0],
}).DisableLifeTimeVariation()

i1 = Input("in", "TENSOR_FLOAT32", "{5}")
o1 = Output("out", "TENSOR_FLOAT32", "{5}")
Model("relu1").Operation("RELU1", i1).To(o1)
# No lifetime variations: the ADD that would write these inputs turns an
# infinity into +-FLT_MAX (docs/operations.md, ADD).
Example({
    i1: [float("nan"), float("-inf"), float("inf"), -0.0, 0.5],
    o1: [-1.0, -1.0, 1.0, 0.0, 0.5],
}).DisableLifeTimeVariation()

i6 = Input("in", "TENSOR_FLOAT32", "{5}")
o6 = Output("out", "TENSOR_FLOAT32", "{5}")
Model("relu6").Operation("RELU6", i6).To(o6)
# No lifetime variations: the ADD that would write these inputs turns an
# infinity into +-FLT_MAX (docs/operations.md, ADD).
Example({
    i6: [float("nan"), float("-inf"), float("inf"), -0.0, 7.0],
    o6: [0.0, 0.0, 6.0, 0.0, 6.0],
}).DisableLifeTimeVariation()
