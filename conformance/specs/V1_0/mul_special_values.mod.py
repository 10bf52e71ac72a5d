# MUL (HAL 1.0), float32 special values: overflow, infinite inputs and -0.0.
# docs/operations.md (Fused activation; MUL (18)): an infinite float32 product is
# clamped to +-FLT_MAX (3.4028234663852886e38) even for act NONE, and the fused
# activation applies to the clamped value. Golden values by hand:
#   1e20 * 1e20   = 1e40, inf in float32 -> FLT_MAX
#   -1e20 * 1e20  = -inf                 -> -FLT_MAX
#   inf * 2       = inf                  -> FLT_MAX
#   -inf * 2      = -inf                 -> -FLT_MAX
#   -0.0 * 5      = -0.0 (compares equal to 0)
#   1.5 * -2      = -3
# RELU [FLT_MAX, 0, FLT_MAX, 0, 0, 0], RELU1 [1, -1, 1, -1, 0, -1],
# RELU6 [6, 0, 6, 0, 0, 0].
# The infinities and zeros sit so that the fresh items (which scale and shuffle
# each input tensor, docs/suite.md, Fresh inputs) can never pair them into a NaN.
# Not tested: inf * 0 (NaN): docs/operations.md does not state what the clamp or a
# fused activation makes of a NaN. No relaxed variation: float16 computation (which
# relaxed allows) cannot hold 1e20 and overflows at 65504; the FLT_MAX clamp is
# documented for float32 only.
FLT_MAX = 3.4028234663852886e38
a = Input("a", "TENSOR_FLOAT32", "{6}")
b = Input("b", "TENSOR_FLOAT32", "{6}")
act = Int32Scalar("act", 0)
out = Output("out", "TENSOR_FLOAT32", "{6}")
Model().Operation("MUL", a, b, act).To(out)
# No lifetime variations: the ADD that would write these inputs turns an
# infinity into +-FLT_MAX (docs/operations.md, ADD).
Example({
    a: [1e20, -1e20, float("inf"), float("-inf"), -0.0, 1.5],
    b: [1e20, 1e20, 2.0, 2.0, 5.0, -2.0],
    out: [FLT_MAX, -FLT_MAX, FLT_MAX, -FLT_MAX, -0.0, -3.0],
}).AddAllActivations(out, act).DisableLifeTimeVariation()
