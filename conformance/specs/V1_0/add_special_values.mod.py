# ADD (HAL 1.0), float32 special values: overflow, infinite inputs and -0.0.
# docs/operations.md (Fused activation; ADD (0)): for the float forms of ADD, SUB,
# MUL and DIV the result is clamped to [-FLT_MAX, FLT_MAX] even for act NONE, so
# an infinite float32 result comes out as +-FLT_MAX (3.4028234663852886e38, the
# largest finite float32), and the activation then applies to the clamped value.
# Golden values by hand, element by element (a and b as float32):
#   3e38 + 3e38     = 6e38 > FLT_MAX, inf in float32  -> FLT_MAX
#   -3e38 + -3e38   = -inf                             -> -FLT_MAX
#   inf + 1         = inf                              -> FLT_MAX
#   -inf + 2        = -inf                             -> -FLT_MAX
#   -0.0 + -0.0     = -0.0 (IEEE; compares equal to 0)
#   2.5 + 1.5       = 4 (an ordinary element next to the special ones)
# Activations of the clamped value: RELU [FLT_MAX, 0, FLT_MAX, 0, 0, 4],
# RELU1 [1, -1, 1, -1, 0, 1], RELU6 [6, 0, 6, 0, 0, 4].
# Not tested: inf + -inf (NaN), because docs/operations.md does not state what
# the clamp or a fused activation does with a NaN (only the RELU operations
# state it), so that result is unspecified.
# The infinities and zeros sit so that the fresh items (which scale and shuffle
# each input tensor, docs/suite.md, Fresh inputs) can never pair them into a NaN.
# No relaxed variation: a relaxed model may compute in float16, where 3e38 is not
# representable (it becomes inf) and whose largest value is 65504; the docs give
# the clamp to FLT_MAX for float32 arithmetic only. Float16 overflow is tested in
# V1_2/add_v1_2 (float16_overflow), where the result is inf.
FLT_MAX = 3.4028234663852886e38
a = Input("a", "TENSOR_FLOAT32", "{6}")
b = Input("b", "TENSOR_FLOAT32", "{6}")
act = Int32Scalar("act", 0)
out = Output("out", "TENSOR_FLOAT32", "{6}")
Model().Operation("ADD", a, b, act).To(out)
# No lifetime variations: the ADD that would write these inputs turns an
# infinity into +-FLT_MAX (docs/operations.md, ADD).
Example({
    a: [3e38, -3e38, float("inf"), float("-inf"), -0.0, 2.5],
    b: [3e38, -3e38, 1.0, 2.0, -0.0, 1.5],
    out: [FLT_MAX, -FLT_MAX, FLT_MAX, -FLT_MAX, -0.0, 4.0],
}).AddAllActivations(out, act).DisableLifeTimeVariation()
