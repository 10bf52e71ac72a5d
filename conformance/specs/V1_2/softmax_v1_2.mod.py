# SOFTMAX in HAL 1.2: the axis input along every axis of every rank (1 to 4,
# negative axes included), ranks 1 and 3 without the axis input, float16 (beta
# as a FLOAT16 scalar), relaxed and quant8 (output fixed at scale 1/256, zero
# point 0). Golden values: conformance/specs/oracles/pooling_oracle.py, case
# softmax_cases ("axis_beta1", "no_axis_beta0.5").
#
# The first example holds eight lines of three along the last axis, among them
# equal values (1/3 each), a tied maximum, and wide ranges ([-10, 10, 5] gives
# 2.0e-9, 0.9933071, 0.0066929). The axis converters move that axis and drop
# others in input and output alike, so every variation still normalises whole lines.
i1 = Input("in", "TENSOR_FLOAT32", "{2, 2, 2, 3}")
axis = Int32Scalar("axis", -1)
o1 = Output("out", "TENSOR_FLOAT32", "{2, 2, 2, 3}")
Model("axis").Operation("SOFTMAX", i1, 1.0, axis).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    o1: ("TENSOR_QUANT8_ASYMM", 1.0 / 256, 0),
})
Example({
    i1: [1.0, 2.0, 3.0, 0.5, 0.5, 0.5, -2.0, 4.0, 1.0, 6.0, -6.0, 0.0,
         3.5, -1.5, 3.5, 0.0, -0.5, -4.0, 2.5, 1.0, -3.0, -10.0, 10.0, 5.0],
    o1: [0.09003057, 0.2447285, 0.665241, 0.3333333, 0.3333333, 0.3333333,
         0.002355633, 0.9503302, 0.04731416, 0.9975213, 6.128982e-06, 0.002472608,
         0.4983212, 0.003357662, 0.4983212, 0.6154428, 0.3732849, 0.01127223,
         0.8148519, 0.181818, 0.003330113, 2.047359e-09, 0.9933071, 0.006692851],
}).AddAllDimsAndAxis(i1, o1, axis).AddVariations("relaxed", "float16", quant8)

# No axis input (the last axis), beta 0.5, ranks 4 down to 1; quant8 input at
# scale 0.25, zero point 100.
i2 = Input("in", "TENSOR_FLOAT32", "{2, 1, 2, 4}")
o2 = Output("out", "TENSOR_FLOAT32", "{2, 1, 2, 4}")
Model("no_axis").Operation("SOFTMAX", i2, 0.5).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.25, 100),
    o2: ("TENSOR_QUANT8_ASYMM", 1.0 / 256, 0),
})
Example({
    i2: [0.0, 1.0, -1.0, 2.0, 4.0, 4.0, 3.0, -4.0,
         -2.5, 0.5, 1.5, -0.5, 7.0, 0.0, 2.0, 1.0],
    o2: [0.1674051, 0.2760043, 0.1015363, 0.4550542,
         0.3809747, 0.3809747, 0.2310728, 0.006977795,
         0.06414769, 0.28749, 0.4739908, 0.1743715,
         0.8605338, 0.02598587, 0.07063691, 0.04284345],
}).AddAllDims(i2, o2).AddVariations("relaxed", "float16", quant8)
