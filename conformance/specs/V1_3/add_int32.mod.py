# ADD on TENSOR_INT32 (HAL 1.3): a + b element-wise in 32-bit two's complement,
# broadcast as the float forms; the fused activation must be NONE.
# Golden values by hand (below each example); no oracle script.

# Broadcast [2, 3] + [3]: a = [[1, -2, 30], [-40, 5, 0]], b = [100, -100, 7]
#   row 0: 1 + 100 = 101, -2 - 100 = -102, 30 + 7 = 37
#   row 1: -40 + 100 = 60, 5 - 100 = -95, 0 + 7 = 7
a = Input("a", "TENSOR_INT32", "{2, 3}")
b = Input("b", "TENSOR_INT32", "{3}")
out = Output("out", "TENSOR_INT32", "{2, 3}")
Model().Operation("ADD", a, b, 0).To(out)
Example({
    a: [1, -2, 30, -40, 5, 0],
    b: [100, -100, 7],
    out: [101, -102, 37, 60, -95, 7],
})

# Overflow wraps at 32 bits: 2147483647 + 1 = 2**31 -> -2147483648;
# -2147483648 + -1 = -2**31 - 1 -> 2147483647; 2000000000 + 2000000000 =
# 4000000000 - 2**32 = -294967296; 12345 + -12345 = 0.
x = Input("x", "TENSOR_INT32", "{4}")
y = Input("y", "TENSOR_INT32", "{4}")
z = Output("z", "TENSOR_INT32", "{4}")
Model("overflow").Operation("ADD", x, y, 0).To(z)
Example({
    x: [2147483647, -2147483648, 2000000000, 12345],
    y: [1, -1, 2000000000, -12345],
    z: [-2147483648, 2147483647, -294967296, 0],
})
