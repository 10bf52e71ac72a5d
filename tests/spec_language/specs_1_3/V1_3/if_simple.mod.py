# IF on a condition given as a model input: the "then" model adds 10 to the value,
# the "else" model subtracts 10. Both branch models are built before the main model
# (an Example without model= takes the model made last).
def branch(operation):
    x = Input("x", ("TENSOR_FLOAT32", [2]))
    y = Output("y", ("TENSOR_FLOAT32", [2]))
    ten = Parameter("ten", ("TENSOR_FLOAT32", [1]), [10.0])
    return Model().Operation(operation, x, ten, 0).To(y)

then_model = branch("ADD")
else_model = branch("SUB")

cond = Input("cond", ("TENSOR_BOOL8", [1]))
data = Input("data", ("TENSOR_FLOAT32", [2]))
result = Output("result", ("TENSOR_FLOAT32", [2]))
Model().Operation("IF", cond, then_model, else_model, data).To(result)

quant8 = DataTypeConverter("quant8", scale=0.5, zeroPoint=100)
# true: 1 + 10, 2 + 10
Example({cond: [True], data: [1.0, 2.0], result: [11.0, 12.0]}, name="true").AddVariations(
    "relaxed", "float16", quant8)
# false: 1 - 10, 2 - 10
Example({cond: [False], data: [1.0, 2.0], result: [-9.0, -8.0]}, name="false").AddVariations(
    "relaxed", "float16", quant8)
