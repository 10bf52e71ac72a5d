# EMBEDDING_LOOKUP whose lookups name a row the values do not have: the model is
# valid (the lookups are a model input, so nothing is wrong before the execution),
# but executing it must fail (Android 11's Example(...).ExpectFailure(): VTS 1.3
# requires getSupportedOperations to answer NONE and, if the model is prepared,
# the execution to answer an error status).
# Hand-derived: the values have 3 rows (0, 1, 2); the lookups ask for row 1 and
# then row 3, one past the last. No output is ever compared: the zeros below only
# give the output its shape.

lookups = Input("lookups", "TENSOR_INT32", "{2}")
values = Input("values", "TENSOR_FLOAT32", "{3, 2}")
out = Output("out", "TENSOR_FLOAT32", "{2, 2}")
Model().Operation("EMBEDDING_LOOKUP", lookups, values).To(out)
Example({
    lookups: [1, 3],
    values: [0.0, 0.5, 1.0, 1.5, 2.0, 2.5],
    out: [0.0, 0.0, 0.0, 0.0],
}).ExpectFailure()
