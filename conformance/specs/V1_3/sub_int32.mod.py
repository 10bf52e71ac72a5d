# SUB on TENSOR_INT32 (HAL 1.3): a - b element-wise in 32-bit two's complement,
# broadcast as the float forms; the fused activation must be NONE.
# Golden values by hand (below each example); no oracle script.

# Broadcast [3, 1] - [2]: a = [[5], [-7], [0]], b = [2, -3]
#   row 0: 5 - 2 = 3, 5 + 3 = 8
#   row 1: -7 - 2 = -9, -7 + 3 = -4
#   row 2: 0 - 2 = -2, 0 + 3 = 3
a = Input("a", "TENSOR_INT32", "{3, 1}")
b = Input("b", "TENSOR_INT32", "{2}")
out = Output("out", "TENSOR_INT32", "{3, 2}")
Model().Operation("SUB", a, b, 0).To(out)
Example({
    a: [5, -7, 0],
    b: [2, -3],
    out: [3, 8, -9, -4, -2, 3],
})

# Overflow wraps at 32 bits: -2147483648 - 1 -> 2147483647;
# 2147483647 - -1 = 2**31 -> -2147483648; 0 - -2147483648 = 2**31 -> -2147483648;
# -1 - 2147483647 = -2**31 (no wrap).
x = Input("x", "TENSOR_INT32", "{4}")
y = Input("y", "TENSOR_INT32", "{4}")
z = Output("z", "TENSOR_INT32", "{4}")
Model("overflow").Operation("SUB", x, y, 0).To(z)
Example({
    x: [-2147483648, 2147483647, 0, -1],
    y: [1, -1, -2147483648, 2147483647],
    z: [2147483647, -2147483648, -2147483648, -2147483648],
})
