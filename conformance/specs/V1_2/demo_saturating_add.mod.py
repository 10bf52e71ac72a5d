# org.nnhal_conformance.demo:SATURATING_ADD (a vendor extension operation, HAL 1.2;
# the org.nnhal_conformance namespace is reserved for this project's examples).
# Inputs: two TENSOR_Q16 tensors of one shape (no broadcasting); output: one
# TENSOR_Q16 of that shape. TENSOR_Q16 is signed 16-bit fixed point with 8
# fractional bits (Q8.8), 2 bytes per element, little-endian; the spec gives the
# raw int16 values (real value = raw / 256). Each output element is
# clamp(a + b, -32768, 32767) on the raw values.
# Goldens derived by hand below; conformance/specs/oracles/extension_oracle.py
# recomputes them independently.
Q16 = "org.nnhal_conformance.demo:TENSOR_Q16"

# The chain comes first: the validation suite's quick profile (ci) mutates each spec's
# first case, and this one has a constant of the extension's type.
# Example (rank 3, 1x2x3, two operations): t = SATURATING_ADD(x, y), then
# z = SATURATING_ADD(t, k) with k a constant. Saturation at the intermediate t
# makes the chain differ from one wide sum.
#   x       = [30000, -30000, 10, 16384, -16384, 0]
#   y       = [3000, -3000, 20, 16384, -16385, -7]
#   t = x+y = [33000 -> 32767, -33000 -> -32768, 30, 32768 -> 32767, -32769 -> -32768, -7]
#   k       = [-1000, 1000, 30, -32767, 32767, 7]
#   z = t+k = [31767, -31768, 60, 0, -1, 0]
#   (one wide sum x+y+k would give 32000 and -32000 in the first two places)
x = Input("x", Q16, "{1, 2, 3}")
y = Input("y", Q16, "{1, 2, 3}")
t = Internal("t", Q16, "{1, 2, 3}")
k = Parameter("k", Q16, "{1, 2, 3}", [-1000, 1000, 30, -32767, 32767, 7])
z = Output("z", Q16, "{1, 2, 3}")
Model("chain").Operation("org.nnhal_conformance.demo:SATURATING_ADD", x, y).To(t).Operation(
    "org.nnhal_conformance.demo:SATURATING_ADD", t, k).To(z)
Example({
    x: [30000, -30000, 10, 16384, -16384, 0],
    y: [3000, -3000, 20, 16384, -16385, -7],
    z: [31767, -31768, 60, 0, -1, 0],
})

# Example 2 (2x2): one plain sum and saturation at both ends.
#   256 + 384       = 640      (1.0 + 1.5 = 2.5 in Q8.8: 2.5 * 256 = 640)
#   32000 + 1000    = 33000    > 32767  -> 32767  (saturates high)
#   -32000 + -1000  = -33000   < -32768 -> -32768 (saturates low)
#   -1 + 1          = 0
a = Input("a", Q16, "{2, 2}")
b = Input("b", Q16, "{2, 2}")
out = Output("out", Q16, "{2, 2}")
Model().Operation("org.nnhal_conformance.demo:SATURATING_ADD", a, b).To(out)
Example({
    a: [256, 32000, -32000, -1],
    b: [384, 1000, -1000, 1],
    out: [640, 32767, -32768, 0],
})

# Example 3 (same model as example 1, 2x2): the limits themselves, one step past them, and the
# limits reached exactly without saturating.
#   32767 + 1       = 32768    -> 32767
#   -32768 + -1     = -32769   -> -32768
#   32767 + 0       = 32767    (exactly the maximum: unchanged)
#   -32768 + 0      = -32768   (exactly the minimum: unchanged)
Example({
    a: [32767, -32768, 32767, -32768],
    b: [1, -1, 0, 0],
    out: [32767, -32768, 32767, -32768],
})
