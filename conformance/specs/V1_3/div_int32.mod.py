# DIV on TENSOR_INT32 (HAL 1.3): the floor of a / b (rounding toward minus
# infinity, as Python's //), broadcast as the float forms; a division by zero
# gives 0 (Android 11; the HAL leaves it undefined). The fused activation must be NONE.
# Golden values by hand (below each example); no oracle script.

# Signs: 7 / 2 = 3.5 -> 3; -7 / 2 = -3.5 -> -4; 7 / -2 -> -4; -7 / -2 = 3.5 -> 3;
# exact quotients: 6 / 3 = 2, -6 / 3 = -2; |a| < |b|: 1 / 5 = 0.2 -> 0,
# -1 / 5 = -0.2 -> -1 (truncation would give 0).
a = Input("a", "TENSOR_INT32", "{8}")
b = Input("b", "TENSOR_INT32", "{8}")
out = Output("out", "TENSOR_INT32", "{8}")
Model().Operation("DIV", a, b, 0).To(out)
Example({
    a: [7, -7, 7, -7, 6, -6, 1, -1],
    b: [2, 2, -2, -2, 3, 3, 5, 5],
    out: [3, -4, -4, 3, 2, -2, 0, -1],
})

# Broadcast [2, 3] / [3] with zero divisors: a = [[10, -10, 9], [-9, 0, 2147483647]],
# b = [0, 4, -3]
#   row 0: 10 / 0 -> 0; -10 / 4 = -2.5 -> -3; 9 / -3 = -3
#   row 1: -9 / 0 -> 0; 0 / 4 = 0; 2147483647 / -3 = -715827882.33 -> -715827883
x = Input("x", "TENSOR_INT32", "{2, 3}")
y = Input("y", "TENSOR_INT32", "{3}")
z = Output("z", "TENSOR_INT32", "{2, 3}")
Model("zero_divisor").Operation("DIV", x, y, 0).To(z)
Example({
    x: [10, -10, 9, -9, 0, 2147483647],
    y: [0, 4, -3],
    z: [0, -3, -3, 0, 0, -715827883],
})
