# CONCATENATION with HAL 1.2 forms: float16, and quant8 inputs whose scale and zero
# point differ from the output's (each element is requantized:
# q_out = round((q_in - zp_in) * s_in / s_out) + zp_out, clamped to [0, 255]).
# Order of the data: conformance/specs/oracles/shape_oracle.py ("concatenation ...").

# [2, 2] + [2, 3] along axis 1 -> [2, 5], float16 and relaxed.
a1 = Input("a", "TENSOR_FLOAT32", "{2, 2}")
b1 = Input("b", "TENSOR_FLOAT32", "{2, 3}")
o1 = Output("output", "TENSOR_FLOAT32", "{2, 5}")
Model().Operation("CONCATENATION", a1, b1, 1).To(o1)
Example({
    a1: [0.0, 0.5, 1.0, 1.5],
    b1: [10.0, 10.5, 11.0, 11.5, 12.0, 12.5],
    o1: [0.0, 0.5, 10.0, 10.5, 11.0, 1.0, 1.5, 11.5, 12.0, 12.5],
}).AddVariations("relaxed", "float16")

# Requantization: a at (0.25, 20), b at (1.0, 120), output at (0.5, 100).
# a = [-1.0, 2.5, 4.0, -5.0] -> a_q [16, 30, 36, 0]; in the output 100 + 2*a = [98, 105, 108, 90].
# b = [-3, 7, 0, 12, -20, 100] -> b_q [117, 127, 120, 132, 100, 220]; in the output
# 100 + 2*b = [94, 114, 100, 124, 60, 300 -> 255 (saturated)]. Output [2, 5] by rows
# (axis 1): a's two values then b's three. The golden 100.0 stands for the saturated
# 255 = 77.5 real (the generator clamps the same way).
a2 = Input("a", "TENSOR_FLOAT32", "{2, 2}")
b2 = Input("b", "TENSOR_FLOAT32", "{2, 3}")
o2 = Output("output", "TENSOR_FLOAT32", "{2, 5}")
Model("requantized").Operation("CONCATENATION", a2, b2, 1).To(o2)
mixed = DataTypeConverter().Identify({
    a2: ("TENSOR_QUANT8_ASYMM", 0.25, 20),
    b2: ("TENSOR_QUANT8_ASYMM", 1.0, 120),
    o2: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
})
Example({
    a2: [-1.0, 2.5, 4.0, -5.0],
    b2: [-3.0, 7.0, 0.0, 12.0, -20.0, 100.0],
    o2: [-1.0, 2.5, -3.0, 7.0, 0.0, 4.0, -5.0, 12.0, -20.0, 100.0],
}).AddVariations(mixed)

# Three rank-4 inputs along the last axis, one per channel: [1, 2, 1, 1] x 3 -> [1, 2, 1, 3];
# the second input is a constant. Quant8 with one shared (0.5, 128).
a3 = Input("a", "TENSOR_FLOAT32", "{1, 2, 1, 1}")
b3 = Parameter("b", "TENSOR_FLOAT32", "{1, 2, 1, 1}", [-1.0, -2.0])
c3 = Input("c", "TENSOR_FLOAT32", "{1, 2, 1, 1}")
o3 = Output("output", "TENSOR_FLOAT32", "{1, 2, 1, 3}")
Model("channels").Operation("CONCATENATION", a3, b3, c3, 3).To(o3)
quant8 = DataTypeConverter().Identify({
    a3: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    b3: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    c3: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    o3: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
})
Example({
    a3: [1.0, 2.0],
    c3: [10.0, 20.0],
    o3: [1.0, -1.0, 10.0, 2.0, -2.0, 20.0],
}).AddInput(b3).AddVariations("float16", quant8)
