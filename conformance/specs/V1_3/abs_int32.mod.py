# ABS on TENSOR_INT32 (HAL 1.3): |x| element-wise in 32-bit two's complement, so
# |-2147483648| = 2**31 wraps back to -2147483648 (Android 11 keeps INT32_MIN).
# Golden values by hand: each output is the input without its sign.
i = Input("in", "TENSOR_INT32", "{2, 4}")
o = Output("out", "TENSOR_INT32", "{2, 4}")
Model().Operation("ABS", i).To(o)
Example({
    i: [-5, 0, 7, -1, 2147483647, -2147483647, -2147483648, 123456],
    o: [5, 0, 7, 1, 2147483647, 2147483647, -2147483648, 123456],
})

# Rank 5 (no rank limit, as the float forms).
i5 = Input("in", "TENSOR_INT32", "{1, 2, 1, 1, 2}")
o5 = Output("out", "TENSOR_INT32", "{1, 2, 1, 1, 2}")
Model("rank5").Operation("ABS", i5).To(o5)
Example({i5: [-3, 3, -100, 0], o5: [3, 3, 100, 0]})
