# ADD in HAL 1.2: broadcasting across ranks ([2, 1, 2] + [3, 1] -> [2, 3, 2]),
# relaxed and float16 variations.
# a = [[[1, 2]], [[3, 4]]], b = [[10], [20], [30]]:
# out[i][j][k] = a[i][0][k] + b[j][0] =
#   [[11, 12], [21, 22], [31, 32]], [[13, 14], [23, 24], [33, 34]]
a = Input("a", "TENSOR_FLOAT32", "{2, 1, 2}")
b = Input("b", "TENSOR_FLOAT32", "{3, 1}")
out = Output("out", "TENSOR_FLOAT32", "{2, 3, 2}")
Model().Operation("ADD", a, b, 0).To(out)

Example({
    a: [1.0, 2.0, 3.0, 4.0],
    b: [10.0, 20.0, 30.0],
    out: [11.0, 12.0, 21.0, 22.0, 31.0, 32.0, 13.0, 14.0, 23.0, 24.0, 33.0, 34.0],
}).AddVariations("relaxed", "float16")
