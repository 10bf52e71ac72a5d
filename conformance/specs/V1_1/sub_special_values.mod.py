# SUB (HAL 1.1), float32 special values: overflow, infinite inputs and -0.0.
# docs/operations.md (Fused activation; SUB (36)): infinite float results clamp to
# +-FLT_MAX (3.4028234663852886e38) as for ADD, even for act NONE; the fused
# activation applies to the clamped value. Golden values by hand:
#   3e38 - -3e38  = 6e38, inf in float32 -> FLT_MAX
#   -3e38 - 3e38  = -inf                 -> -FLT_MAX
#   inf - 1       = inf                  -> FLT_MAX
#   -inf - 2      = -inf                 -> -FLT_MAX
#   -0.0 - 0.0    = -0.0 (compares equal to 0)
#   0.5 - 3       = -2.5
# RELU [FLT_MAX, 0, FLT_MAX, 0, 0, 0], RELU1 [1, -1, 1, -1, 0, -1],
# RELU6 [6, 0, 6, 0, 0, 0].
# The infinities and zeros sit so that the fresh items (which scale and shuffle
# each input tensor, docs/suite.md, Fresh inputs) can never pair them into a NaN.
# Not tested: inf - inf (NaN): the docs do not state what the clamp or a fused
# activation does with NaN. No relaxed variation: relaxed allows float16
# computation, which holds neither 3e38 nor anything above 65504; the FLT_MAX
# clamp is documented for float32.
FLT_MAX = 3.4028234663852886e38
a = Input("a", "TENSOR_FLOAT32", "{6}")
b = Input("b", "TENSOR_FLOAT32", "{6}")
act = Int32Scalar("act", 0)
out = Output("out", "TENSOR_FLOAT32", "{6}")
Model().Operation("SUB", a, b, act).To(out)
# No lifetime variations: the ADD that would write these inputs turns an
# infinity into +-FLT_MAX (docs/operations.md, ADD).
Example({
    a: [3e38, -3e38, float("inf"), float("-inf"), -0.0, 0.5],
    b: [-3e38, 3e38, 1.0, 2.0, 0.0, 3.0],
    out: [FLT_MAX, -FLT_MAX, FLT_MAX, -FLT_MAX, -0.0, -2.5],
}).AddAllActivations(out, act).DisableLifeTimeVariation()

# No relaxed variation. A relaxed model with RELU1 or RELU6 fused would have one
# right answer for the example (the bounds, whether the overflow is computed in
# float32 or in float16, where 3e38 is inf), but not for its fresh items: they draw
# new inputs, and a driver computing in float16 (tests/support/faulty_drivers.py,
# RelaxedInFloat16) got NaN in one fresh draw where the float32 answer is 6, and
# the docs do not say what a NaN becomes through a fused activation.
