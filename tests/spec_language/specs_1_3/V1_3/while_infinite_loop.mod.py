# A WHILE that never ends: the condition is i >= n with n = 0, the body adds 1 to i,
# starting from i = 2. The execution must stop at the loop timeout and fail; the
# output value is never compared.
value_type = ("TENSOR_FLOAT32", [1])

c_i = Input("c_i", value_type)
c_n = Input("c_n", value_type)
c_out = Output("c_out", ("TENSOR_BOOL8", [1]))
cond = Model().Operation("GREATER_EQUAL", c_i, c_n).To(c_out)

b_i = Input("b_i", value_type)
b_n = Input("b_n", value_type)
b_i_next = Output("b_i_next", value_type)
body = Model().Operation("ADD", b_i, [1.0], 0).To(b_i_next)
body.IdentifyInputs(b_i, b_n)

i = Input("i", value_type)
n = Parameter("n", value_type, [0.0])
i_out = Output("i_out", value_type)
Model().Operation("WHILE", cond, body, i, n).To(i_out)

quant8 = DataTypeConverter("quant8", scale=1.0, zeroPoint=10)
quant8_signed = DataTypeConverter("quant8_signed", scale=1.0, zeroPoint=-10)
Example({i: [2.0], i_out: [0.0]}).AddVariations(
    "relaxed", "float16", quant8, quant8_signed
).ExpectFailure().DisableDynamicOutputShapeVariation()
