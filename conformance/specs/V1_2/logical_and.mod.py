# LOGICAL_AND (HAL 1.2): element-wise (a != 0) and (b != 0) on TENSOR_BOOL8, with
# broadcasting. Golden values derived by hand below and checked with
# conformance/specs/oracles/comparison_oracle.py.

# Every combination: a {2, 2} = [[0, 1], [1, 0]] against b {2} = [1, 0]:
# row 0: 0 and 1, 1 and 0 -> [0, 0]; row 1: 1 and 1, 0 and 0 -> [1, 0].
a = Input("a", "TENSOR_BOOL8", "{2, 2}")
b = Input("b", "TENSOR_BOOL8", "{2}")
out = Output("out", "TENSOR_BOOL8", "{2, 2}")
Model().Operation("LOGICAL_AND", a, b).To(out)

Example({
    a: [False, True, True, False],
    b: [True, False],
    out: [False, False, True, False],
})

# Size-1 axes on both sides: x {1, 2, 3} = [[[1, 0, 1], [0, 0, 1]]] against a
# constant c {2, 1, 1} = [1, 0] gives {2, 2, 3}: c[0] = 1 keeps x, c[1] = 0 clears it:
# [[1, 0, 1], [0, 0, 1]], [[0, 0, 0], [0, 0, 0]]. c also runs as a model input.
x = Input("x", "TENSOR_BOOL8", "{1, 2, 3}")
c = Parameter("c", "TENSOR_BOOL8", "{2, 1, 1}", [True, False])
y = Output("y", "TENSOR_BOOL8", "{2, 2, 3}")
Model("broadcast").Operation("LOGICAL_AND", x, c).To(y)

Example({
    x: [True, False, True, False, False, True],
    y: [True, False, True, False, False, True,
        False, False, False, False, False, False],
}).AddInput(c)
