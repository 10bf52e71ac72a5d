# LOG_SOFTMAX (HAL 1.2): out = beta (x - max) - log(sum_k exp(beta (x_k - max)))
# along the axis, on every axis of ranks 3 to 1 (negative axes included),
# float32, float16 (beta as a FLOAT16 scalar) and relaxed; large logits
# (99 to 102) and equal values (log 1/4 = -1.386294).
# Golden values: conformance/specs/oracles/pooling_oracle.py, case
# log_softmax_cases. By hand for the first line, beta 1: the maximum is 3, the
# sum exp(-2) + 1 + exp(-5) + exp(-2.5) = 1.2244, log = 0.2022534, so
# out = [-2 - 0.2022534, -0.2022534, -5.2022534, -2.7022534].
data = [1.0, 3.0, -2.0, 0.5,
        100.0, 101.0, 99.0, 102.0,
        -4.0, -4.0, -4.0, -4.0,
        2.5, -1.5, 0.0, 7.0]

i1 = Input("in", "TENSOR_FLOAT32", "{2, 2, 4}")
axis = Int32Scalar("axis", -1)
o1 = Output("out", "TENSOR_FLOAT32", "{2, 2, 4}")
Model().Operation("LOG_SOFTMAX", i1, 1.0, axis).To(o1)
Example({
    i1: data,
    o1: [-2.202253, -0.2022534, -5.202253, -2.702253,
         -2.44019, -1.44019, -3.44019, -0.4401897,
         -1.386294, -1.386294, -1.386294, -1.386294,
         -4.51215, -8.51215, -7.01215, -0.01215023],
}).AddAllDimsAndAxis(i1, o1, axis).AddVariations("relaxed", "float16")

# beta 0.5
i2 = Input("in", "TENSOR_FLOAT32", "{2, 2, 4}")
o2 = Output("out", "TENSOR_FLOAT32", "{2, 2, 4}")
Model("beta").Operation("LOG_SOFTMAX", i2, 0.5, -1).To(o2)
Example({
    i2: data,
    o2: [-1.551854, -0.5518539, -3.051854, -1.801854,
         -1.787339, -1.287339, -2.287339, -0.7873387,
         -1.386294, -1.386294, -1.386294, -1.386294,
         -2.389641, -4.389641, -3.639641, -0.1396409],
}).AddVariations("relaxed", "float16")
