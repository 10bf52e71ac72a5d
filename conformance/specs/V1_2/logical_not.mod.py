# LOGICAL_NOT (HAL 1.2): element-wise (x == 0) on TENSOR_BOOL8, same shape.
# Golden values by hand: each output is the input flipped.

x = Input("x", "TENSOR_BOOL8", "{2, 3}")
out = Output("out", "TENSOR_BOOL8", "{2, 3}")
Model().Operation("LOGICAL_NOT", x).To(out)

# [[1, 0, 0], [1, 1, 0]] -> [[0, 1, 1], [0, 0, 1]]
Example({
    x: [True, False, False, True, True, False],
    out: [False, True, True, False, False, True],
})

# A single element, false -> true; and a rank-4 tensor of trues -> falses.
s = Input("s", "TENSOR_BOOL8", "{1}")
sout = Output("sout", "TENSOR_BOOL8", "{1}")
Model("single").Operation("LOGICAL_NOT", s).To(sout)

Example({s: [False], sout: [True]})

r = Input("r", "TENSOR_BOOL8", "{1, 2, 1, 2}")
rout = Output("rout", "TENSOR_BOOL8", "{1, 2, 1, 2}")
Model("rank4").Operation("LOGICAL_NOT", r).To(rout)

Example({r: [True, True, False, True], rout: [False, False, True, False]})
