# FILL (HAL 1.3): an output whose shape is the content of input 0 (a rank-1
# TENSOR_INT32, here a constant or a model input, so the shape may be known only at
# execution) and whose every element is input 1: FLOAT32 for a TENSOR_FLOAT32 output,
# FLOAT16 for TENSOR_FLOAT16 (the float16 variations), INT32 for TENSOR_INT32.
# Output ranks 1, 3 and 5; the last model fills with a value RANK computes into a
# scalar internal operand (a TEMPORARY_VARIABLE INT32), so it has no dynamic-output-
# shape runs. Golden values: conformance/specs/oracles/newops_oracle.py (the value
# repeated; also evident by hand). Every value is exact in float16.
o1 = Output("out", "TENSOR_FLOAT32", "{5}")
Model().Operation("FILL", Int32Vector("shape", [5]), 1.5).To(o1)
Example({o1: [1.5, 1.5, 1.5, 1.5, 1.5]}).AddVariations("relaxed", "float16")

# Rank 3, the shape a model input: known only when the request comes.
s3 = Input("shape", "TENSOR_INT32", "{3}")
o3 = Output("out", "TENSOR_FLOAT32", "{2, 3, 2}")
Model("rank3").Operation("FILL", s3, -0.25).To(o3)
Example({s3: [2, 3, 2], o3: [-0.25] * 12}).AddVariations("relaxed", "float16")

# Rank 5, a constant shape.
o5 = Output("out", "TENSOR_FLOAT32", "{1, 2, 1, 2, 2}")
Model("rank5").Operation("FILL", Int32Vector("shape", [1, 2, 1, 2, 2]), 7.0).To(o5)
Example({o5: [7.0] * 8}).AddVariations("relaxed", "float16")

# TENSOR_INT32 outputs, rank 3 (shape a model input) and rank 5 (a constant).
s3i = Input("shape", "TENSOR_INT32", "{3}")
o3i = Output("out", "TENSOR_INT32", "{2, 1, 3}")
Model("int32_rank3").Operation("FILL", s3i, -7).To(o3i)
Example({s3i: [2, 1, 3], o3i: [-7, -7, -7, -7, -7, -7]})

o5i = Output("out", "TENSOR_INT32", "{2, 1, 1, 2, 1}")
Model("int32_rank5").Operation("FILL", Int32Vector("shape", [2, 1, 1, 2, 1]), 123456).To(o5i)
Example({o5i: [123456, 123456, 123456, 123456]})

# The value produced by RANK: x has rank 3, so every element is 3.
x = Input("x", "TENSOR_FLOAT32", "{2, 2, 1}")
rank = Internal("rank", "INT32", "{}")
sr = Input("shape", "TENSOR_INT32", "{3}")
orr = Output("out", "TENSOR_INT32", "{2, 2, 1}")
Model("value_from_rank").Operation("RANK", x).To(rank).Operation("FILL", sr, rank).To(orr)
Example({x: [0.5, -1.0, 2.0, 0.0], sr: [2, 2, 1], orr: [3, 3, 3, 3]})
