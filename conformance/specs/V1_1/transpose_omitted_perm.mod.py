# TRANSPOSE of a rank-2 tensor with its optional permutation (input 1) omitted (the two
# axes are swapped), in the three ways a model can omit an input: a model input declared
# "{0}" and given [] (sent with has_no_value), a model input declared with its full shape
# "{2}" and given [], and a constant with no value (Omitted: lifetime NO_VALUE).
# Golden values: conformance/specs/oracles/shape_oracle.py ("transpose 2x3 omitted"),
# the same in every idiom.
for idiom in ("zero_sized_input", "full_shape_input", "no_value_constant"):
    x = Input("input", "TENSOR_FLOAT32", "{2, 3}")
    if idiom == "zero_sized_input":
        perm = Input("perm", "TENSOR_INT32", "{0}")
    elif idiom == "full_shape_input":
        perm = Input("perm", "TENSOR_INT32", "{2}")
    else:
        perm = Omitted("perm", "TENSOR_INT32", "{2}")
    y = Output("output", "TENSOR_FLOAT32", "{3, 2}")
    Model(idiom).Operation("TRANSPOSE", x, perm).To(y)
    quant8 = DataTypeConverter().Identify({
        x: ("TENSOR_QUANT8_ASYMM", 0.5, 50),
        y: ("TENSOR_QUANT8_ASYMM", 0.5, 50),
    })
    Example({
        x: [1.0, 1.5, 2.0, 2.5, 3.0, 3.5],
        perm: [],
        y: [1.0, 2.5, 1.5, 3.0, 2.0, 3.5],
    }).AddVariations("relaxed", quant8)
