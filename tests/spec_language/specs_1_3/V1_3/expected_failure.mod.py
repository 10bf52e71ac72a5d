# ExpectFailure marks the model's execution as one that must fail;
# DisableDynamicOutputShapeVariation is recorded and changes nothing.
lookups = Input("lookups", "TENSOR_INT32", "{1}")
values = Input("values", "TENSOR_FLOAT32", "{2, 1}")
out = Output("out", "TENSOR_FLOAT32", "{1, 1}")
Model().Operation("EMBEDDING_LOOKUP", lookups, values).To(out)
Example({lookups: [2], values: [1.0, 2.0], out: [0.0]}).ExpectFailure() \
    .DisableDynamicOutputShapeVariation()
