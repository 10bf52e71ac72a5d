# DIV (HAL 1.1), float32 special values: division by +-0, overflow, infinite inputs.
# docs/operations.md (DIV (30)): act(A / B) in IEEE arithmetic (x / 0 is +-inf),
# except that infinite results are clamped to +-FLT_MAX (3.4028234663852886e38),
# even for act NONE; the fused activation applies to the clamped value.
# Golden values by hand:
#   1 / 0         = inf                  -> FLT_MAX
#   -2 / 0        = -inf                 -> -FLT_MAX
#   1 / -0.0      = -inf (IEEE: the zero's sign counts) -> -FLT_MAX
#   3e38 / 1e-5   = 3e43, inf in float32 -> FLT_MAX
#   inf / 2       = inf                  -> FLT_MAX
#   -8 / 4        = -2
#   -3 / 2        = -1.5
# RELU [FLT_MAX, 0, 0, FLT_MAX, FLT_MAX, 0, 0], RELU1 [1, -1, -1, 1, 1, -1, -1],
# RELU6 [6, 0, 0, 6, 6, 0, 0].
# A holds no zero and B no infinity, so that the fresh items (which scale and
# shuffle each input tensor, docs/suite.md, Fresh inputs) never draw 0 / 0 or
# inf / inf.
# Not tested: 0 / 0 and inf / inf (NaN): the docs do not state what the clamp or a
# fused activation does with NaN. No relaxed variation: relaxed allows float16
# computation, which cannot hold 3e38 or 1e-5 exactly and overflows at 65504; the
# FLT_MAX clamp is documented for float32. V1_2/div_v1_2 tests float16 division by
# zero, which gives inf.
FLT_MAX = 3.4028234663852886e38
a = Input("a", "TENSOR_FLOAT32", "{7}")
b = Input("b", "TENSOR_FLOAT32", "{7}")
act = Int32Scalar("act", 0)
out = Output("out", "TENSOR_FLOAT32", "{7}")
Model().Operation("DIV", a, b, act).To(out)
# No lifetime variations: the ADD that would write these inputs turns an
# infinity into +-FLT_MAX (docs/operations.md, ADD).
Example({
    a: [1.0, -2.0, 1.0, 3e38, float("inf"), -8.0, -3.0],
    b: [0.0, 0.0, -0.0, 1e-5, 2.0, 4.0, 2.0],
    out: [FLT_MAX, -FLT_MAX, -FLT_MAX, FLT_MAX, FLT_MAX, -2.0, -1.5],
}).AddAllActivations(out, act).DisableLifeTimeVariation()
