# MUL on TENSOR_INT32 (HAL 1.3): a * b element-wise, the low 32 bits of the product
# in two's complement, broadcast as the float forms; the fused activation must be NONE.
# Golden values by hand (below each example); no oracle script.

# Broadcast [2, 2] * [2, 1]: a = [[3, -4], [0, 7]], b = [[-2], [6]]
#   row 0: 3 * -2 = -6, -4 * -2 = 8;  row 1: 0 * 6 = 0, 7 * 6 = 42
a = Input("a", "TENSOR_INT32", "{2, 2}")
b = Input("b", "TENSOR_INT32", "{2, 1}")
out = Output("out", "TENSOR_INT32", "{2, 2}")
Model().Operation("MUL", a, b, 0).To(out)
Example({
    a: [3, -4, 0, 7],
    b: [-2, 6],
    out: [-6, 8, 0, 42],
})

# Overflow keeps the low 32 bits:
#   65536 * 65536 = 2**32 -> 0
#   46341 * 46341 = 2147488281 = 2**31 + 4633 -> 2147488281 - 2**32 = -2147479015
#   -2147483648 * -1 = 2**31 -> -2147483648
#   100000 * -30000 = -3000000000 -> -3000000000 + 2**32 = 1294967296
x = Input("x", "TENSOR_INT32", "{4}")
y = Input("y", "TENSOR_INT32", "{4}")
z = Output("z", "TENSOR_INT32", "{4}")
Model("overflow").Operation("MUL", x, y, 0).To(z)
Example({
    x: [65536, 46341, -2147483648, 100000],
    y: [65536, 46341, -1, -30000],
    z: [0, -2147479015, -2147483648, 1294967296],
})
