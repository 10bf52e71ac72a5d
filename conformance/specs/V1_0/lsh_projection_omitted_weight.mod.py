# LSH_PROJECTION, sparse form (type 1), with its optional weight (input 2) omitted in the
# three ways a model can omit an input: a model input declared "{0}" and given [] (sent
# with has_no_value), a model input declared with its full shape "{2}" (one weight per
# input row) and given [], and a constant with no value (Omitted: lifetime NO_VALUE).
# The data is case "sparse_float32" of lsh_projection.mod.py; golden values from
# conformance/specs/oracles/lookup_oracle.py (that case), the same in every idiom.
for idiom in ("zero_sized_input", "full_shape_input", "no_value_constant"):
    hash_seeds = Parameter("hash", "TENSOR_FLOAT32", "{4, 2}",
                           [0.125, -0.5, 1.25, -2.75, 3.5, 0.375, -6.0, 10.5])
    lookup = Input("lookup", "TENSOR_FLOAT32", "{2, 3}")
    if idiom == "zero_sized_input":
        weight = Input("weight", "TENSOR_FLOAT32", "{0}")
    elif idiom == "full_shape_input":
        weight = Input("weight", "TENSOR_FLOAT32", "{2}")
    else:
        weight = Omitted("weight", "TENSOR_FLOAT32", "{2}")
    out = Output("out", "TENSOR_INT32", "{4}")
    Model(idiom).Operation("LSH_PROJECTION", hash_seeds, lookup, weight, 1).To(out)
    Example({
        lookup: [1.5, -2.25, 8.0, 0.5, 3.75, -1.0],
        weight: [],
        out: [3, 2, 2, 1],
    }).AddInput(hash_seeds)
