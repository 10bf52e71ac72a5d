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

# Float16 overflow (by hand): 60000 + 60000 = 120000 and -40000 - 30000 = -70000 lie
# beyond float16's largest finite value 65504 and round to +-inf; 1000 + 0.5 = 1000.5
# is exact (float16's step at 1000 is 0.5). The Android 10 CPU reference adds in
# float32 and rounds once to float16, so it agrees with the documentation here.
x = Input("x", "TENSOR_FLOAT16", "{3}")
y = Input("y", "TENSOR_FLOAT16", "{3}")
z = Output("z", "TENSOR_FLOAT16", "{3}")
Model("float16_overflow").Operation("ADD", x, y, 0).To(z)
Example({
    x: [60000.0, -40000.0, 1000.0],
    y: [60000.0, -30000.0, 0.5],
    z: [float("inf"), float("-inf"), 1000.5],
})
