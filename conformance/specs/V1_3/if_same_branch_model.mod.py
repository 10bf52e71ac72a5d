# IF (HAL 1.3) whose two branches are one subgraph: the same Model object passed as the
# then and the else operand is one referenced subgraph, referenced twice. The branch is
# y = x * -2; both conditions give it. quant8: scale 0.5, zero point 30 (the product's
# scale 0.25 is below the output's, as Q8A MUL requires); quant8_signed: scale 0.5, zero
# point -20. Golden values: conformance/specs/oracles/control_flow_oracle.py
ValueType = ["TENSOR_FLOAT32", [2, 2]]
BoolType = ["TENSOR_BOOL8", [1]]

bx = Input("branch_x", ValueType)
by = Output("branch_y", ValueType)
minus_two = Parameter("minus_two", ["TENSOR_FLOAT32", [1]], [-2.0])
branch = Model().Operation("MUL", bx, minus_two, 0).To(by)

cond = Input("cond", BoolType)
x = Input("x", ValueType)
y = Output("y", ValueType)
main = Model().Operation("IF", cond, branch, branch, x).To(y)

quant8 = DataTypeConverter("quant8", scale=0.5, zeroPoint=30)
quant8_signed = DataTypeConverter("quant8_signed", scale=0.5, zeroPoint=-20)

for value in (True, False):
    Example({
        cond: [value],
        x: [1.0, -3.0, 4.0, 2.0],
        y: [-2.0, 6.0, -8.0, -4.0],
    }, model=main, name="true" if value else "false").AddVariations(
        "relaxed", "float16", "int32", quant8, quant8_signed)
