# SOFTMAX in its HAL 1.0 forms: rank 2 and rank 4, float32 and quant8, along the
# last axis, beta 1, 0.5 and 2. out_i = exp(beta (x_i - max)) / sum_k exp(beta (x_k - max)).
# Golden values: conformance/specs/oracles/pooling_oracle.py, case softmax_cases;
# by hand for the first row: exp(-3, -2, -1, 0) / sum = [0.0320586, 0.0871443,
# 0.2368828, 0.6439143], and a row of equal values gives 1/3 each.
# Quant8: input scale 0.5, zero point 128; the output is fixed at scale 1/256,
# zero point 0 (256 p rounded, 1.0 saturating at 255).
i1 = Input("in", "TENSOR_FLOAT32", "{2, 4}")
o1 = Output("out", "TENSOR_FLOAT32", "{2, 4}")
Model("rank2").Operation("SOFTMAX", i1, 1.0).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    o1: ("TENSOR_QUANT8_ASYMM", 1.0 / 256, 0),
})
Example({
    i1: [1.0, 2.0, 3.0, 4.0, -1.0, -1.0, 2.0, 0.5],
    o1: [0.0320586, 0.08714432, 0.2368828, 0.6439143,
         0.03764036, 0.03764036, 0.7560269, 0.1686924],
}).AddVariations(quant8)

i2 = Input("in", "TENSOR_FLOAT32", "{2, 4}")
o2 = Output("out", "TENSOR_FLOAT32", "{2, 4}")
Model("rank2_beta").Operation("SOFTMAX", i2, 0.5).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    o2: ("TENSOR_QUANT8_ASYMM", 1.0 / 256, 0),
})
Example({
    i2: [1.0, 2.0, 3.0, 4.0, -1.0, -1.0, 2.0, 0.5],
    o2: [0.1015363, 0.1674051, 0.2760043, 0.4550542,
         0.1162968, 0.1162968, 0.5212061, 0.2462003],
}).AddVariations(quant8)

i3 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
o3 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
Model("rank4").Operation("SOFTMAX", i3, 1.0).To(o3)
quant8 = DataTypeConverter().Identify({
    i3: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    o3: ("TENSOR_QUANT8_ASYMM", 1.0 / 256, 0),
})
Example({
    i3: [0.5, 1.5, -1.0, 2.0, 2.0, 2.0, -3.0, 0.0, 3.0, 1.0, -0.5, 4.5],
    o3: [0.2537162, 0.6896721, 0.05661173, 0.3333333, 0.3333333, 0.3333333,
         0.002355633, 0.04731416, 0.9503302, 0.02912176, 0.006497943, 0.9643803],
}).AddVariations(quant8)

i4 = Input("in", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
o4 = Output("out", "TENSOR_FLOAT32", "{1, 2, 2, 3}")
Model("rank4_beta").Operation("SOFTMAX", i4, 2.0).To(o4)
quant8 = DataTypeConverter().Identify({
    i4: ("TENSOR_QUANT8_ASYMM", 0.5, 128),
    o4: ("TENSOR_QUANT8_ASYMM", 1.0 / 256, 0),
})
Example({
    i4: [0.5, 1.5, -1.0, 2.0, 2.0, 2.0, -3.0, 0.0, 3.0, 1.0, -0.5, 4.5],
    o4: [0.1184997, 0.8756006, 0.00589975, 0.3333333, 0.3333333, 0.3333333,
         6.128982e-06, 0.002472608, 0.9975213, 0.0009110099, 4.535651e-05, 0.9990436],
}).AddVariations(quant8)
