# An IF whose condition has no value (an omitted operand, lifetime NO_VALUE): the
# model is structurally valid but no branch can be chosen, so preparing or executing
# it must fail. The output values are never compared.
def branch(operation):
    x = Input("x", ("TENSOR_FLOAT32", [2]))
    y = Output("y", ("TENSOR_FLOAT32", [2]))
    return Model().Operation(operation, x).To(y)

then_model = branch("RELU")
else_model = branch("NEG")

cond = Parameter("cond", ("TENSOR_BOOL8", [1]), None)
data = Input("data", ("TENSOR_FLOAT32", [2]))
result = Output("result", ("TENSOR_FLOAT32", [2]))
Model().Operation("IF", cond, then_model, else_model, data).To(result)

Example({data: [4.0, -4.0], result: [0.0, 0.0]}).AddVariations(
    "relaxed", "float16").ExpectFailure()
