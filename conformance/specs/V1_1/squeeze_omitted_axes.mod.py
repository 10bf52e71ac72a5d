# SQUEEZE with its optional axes (input 1) omitted, so every size-1 dimension goes
# ([1, 2, 1, 2] -> [2, 2], the values unchanged), in the three ways a model can omit an
# input: a model input declared "{0}" and given [] (sent with has_no_value), a model input
# declared with a full shape "{2}" and given [], and a constant with no value (Omitted:
# lifetime NO_VALUE). Squeezing only moves no value: the output is the input, by hand.
for idiom in ("zero_sized_input", "full_shape_input", "no_value_constant"):
    x = Input("input", "TENSOR_FLOAT32", "{1, 2, 1, 2}")
    if idiom == "zero_sized_input":
        axes = Input("axes", "TENSOR_INT32", "{0}")
    elif idiom == "full_shape_input":
        axes = Input("axes", "TENSOR_INT32", "{2}")
    else:
        axes = Omitted("axes", "TENSOR_INT32", "{2}")
    y = Output("output", "TENSOR_FLOAT32", "{2, 2}")
    Model(idiom).Operation("SQUEEZE", x, axes).To(y)
    quant8 = DataTypeConverter().Identify({
        x: ("TENSOR_QUANT8_ASYMM", 0.5, 200),
        y: ("TENSOR_QUANT8_ASYMM", 0.5, 200),
    })
    Example({
        x: [1.0, -2.0, 27.5, -100.0],
        axes: [],
        y: [1.0, -2.0, 27.5, -100.0],
    }).AddVariations("relaxed", quant8)
