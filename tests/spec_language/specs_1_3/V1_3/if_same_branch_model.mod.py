# Both branches of the IF are the same model object: the generated model has one
# referenced subgraph, which both SUBGRAPH operands name. The branch is a RELU.
x = Input("x", ("TENSOR_FLOAT32", [4]))
y = Output("y", ("TENSOR_FLOAT32", [4]))
branch = Model().Operation("RELU", x).To(y)

cond = Input("cond", ("TENSOR_BOOL8", [1]))
data = Input("data", ("TENSOR_FLOAT32", [4]))
result = Output("result", ("TENSOR_FLOAT32", [4]))
Model().Operation("IF", cond, branch, branch, data).To(result)

quant8_signed = DataTypeConverter("quant8_signed", scale=0.25, zeroPoint=-8)
for value in (True, False):
    # max(0, (-1.5, 0.25, 3, -0.75)) = (0, 0.25, 3, 0), whichever branch runs
    Example({cond: [value], data: [-1.5, 0.25, 3.0, -0.75], result: [0.0, 0.25, 3.0, 0.0]},
            name="true" if value else "false").AddVariations("relaxed", quant8_signed)
