# LOGICAL_OR (HAL 1.2): element-wise (a != 0) or (b != 0) on TENSOR_BOOL8, with
# broadcasting. Golden values derived by hand below and checked with
# conformance/specs/oracles/comparison_oracle.py.

# Every combination: a {2, 2} = [[0, 1], [1, 0]] against b {2} = [1, 0]:
# row 0: 0 or 1, 1 or 0 -> [1, 1]; row 1: 1 or 1, 0 or 0 -> [1, 0].
a = Input("a", "TENSOR_BOOL8", "{2, 2}")
b = Input("b", "TENSOR_BOOL8", "{2}")
out = Output("out", "TENSOR_BOOL8", "{2, 2}")
Model().Operation("LOGICAL_OR", a, b).To(out)

Example({
    a: [False, True, True, False],
    b: [True, False],
    out: [True, True, True, False],
})

# Size-1 axes on both sides: x {1, 2, 3} = [[[1, 0, 1], [0, 0, 1]]] against a
# constant c {2, 1, 1} = [1, 0] gives {2, 2, 3}: c[0] = 1 sets everything, c[1] = 0
# keeps x: [[1, 1, 1], [1, 1, 1]], [[1, 0, 1], [0, 0, 1]]. c also runs as a model input.
x = Input("x", "TENSOR_BOOL8", "{1, 2, 3}")
c = Parameter("c", "TENSOR_BOOL8", "{2, 1, 1}", [True, False])
y = Output("y", "TENSOR_BOOL8", "{2, 2, 3}")
Model("broadcast").Operation("LOGICAL_OR", x, c).To(y)

Example({
    x: [True, False, True, False, False, True],
    y: [True, True, True, True, True, True,
        True, False, True, False, False, True],
}).AddInput(c)
