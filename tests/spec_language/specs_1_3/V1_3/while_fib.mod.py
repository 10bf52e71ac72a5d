# A WHILE loop stepping a pair (a, b) to (b, a + b) n times, from (1, 3), with a
# FULLY_CONNECTED by [[0, 1], [1, 1]]; the counter i runs from 0 while i < n.
# The models are referenced through SubgraphReference, the quantized variation uses
# nested converters, and the "unused_output" examples leave the final counter unread.
pair_type = ("TENSOR_FLOAT32", [1, 2])
count_type = ("TENSOR_INT32", [1])

# condition: i < n (the pair is an input it does not read)
cond_pair = Input("cond_pair", pair_type)
cond_i = Input("cond_i", count_type)
cond_n = Input("cond_n", count_type)
cond_out = Output("cond_out", ("TENSOR_BOOL8", [1]))
cond_model = Model().Operation("LESS", cond_i, cond_n).To(cond_out)
cond_model.IdentifyInputs(cond_pair, cond_i, cond_n)

# body: pair -> pair x [[0, 1], [1, 1]]^T, i -> i + 1
body_pair = Input("body_pair", pair_type)
body_i = Input("body_i", count_type)
body_n = Input("body_n", count_type)
weights = Parameter("weights", ("TENSOR_FLOAT32", [2, 2]), [0.0, 1.0, 1.0, 1.0])
bias = Parameter("bias", ("TENSOR_FLOAT32", [2]), [0.0, 0.0])
one = Parameter("one", count_type, [1])
body_pair_next = Output("body_pair_next", pair_type)
body_i_next = Output("body_i_next", count_type)
body_model = Model()
body_model.Operation("FULLY_CONNECTED", body_pair, weights, bias, 0).To(body_pair_next)
body_model.Operation("ADD", body_i, one, 0).To(body_i_next)
body_model.IdentifyInputs(body_pair, body_i, body_n)
body_model.IdentifyOutputs(body_pair_next, body_i_next)

cond_ref = SubgraphReference("cond", cond_model)
body_ref = SubgraphReference("body", body_model)

quant8 = DataTypeConverter().Identify({
    cond_pair: ["TENSOR_QUANT8_ASYMM", 1.0, 0],
})
body_quant8 = DataTypeConverter().Identify({
    body_pair: ["TENSOR_QUANT8_ASYMM", 1.0, 0],
    weights: ["TENSOR_QUANT8_ASYMM", 1.0, 0],
    bias: ["TENSOR_INT32", 1.0, 0],
    body_pair_next: ["TENSOR_QUANT8_ASYMM", 1.0, 0],
})

# (1, 3) -> (3, 4) -> (4, 7) -> (7, 11) -> (11, 18) -> (18, 29)
expected = {0: [1.0, 3.0], 2: [4.0, 7.0], 5: [18.0, 29.0]}
for n_value, final in expected.items():
    for unused in (False, True):
        pair = Input("pair", pair_type)
        i = Parameter("i", count_type, [0])
        n = Parameter("n", count_type, [n_value])
        pair_out = Output("pair_out", pair_type)
        i_out = Internal("i_out", count_type) if unused else Output("i_out", count_type)
        model = Model("n_%d" % n_value).Operation(
            "WHILE", cond_ref, body_ref, pair, i, n).To(pair_out, i_out)
        converter = DataTypeConverter().Identify({
            cond_ref: quant8,
            body_ref: body_quant8,
            pair: ["TENSOR_QUANT8_ASYMM", 1.0, 0],
            pair_out: ["TENSOR_QUANT8_ASYMM", 1.0, 0],
        })
        data = {pair: [1.0, 3.0], pair_out: final}
        if not unused:
            data[i_out] = [n_value]
        Example(data, model=model, name="unused_output" if unused else None).AddVariations(
            "relaxed", "float16", converter)
