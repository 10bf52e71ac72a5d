# IF (HAL 1.3) on a model input, both ways: z = (cond ? y + 4 : y - 9) element-wise.
# The then branch adds a constant, the else branch subtracts another, so a driver that
# returns the branch not chosen fails. Each branch is a referenced subgraph of one
# operation; the converters retype every float tensor of the main graph and of both
# branches (quant8: scale 0.5, zero point 40; quant8_signed: scale 1, zero point -10;
# every value is exact in each). The second variation group feeds the IF's output to an
# ADD of zero, so the IF output is a temporary of the main graph.
# Golden values: conformance/specs/oracles/control_flow_oracle.py (it also runs the int32
# and quantized forms and finds the quantized goldens exact).
ValueType = ["TENSOR_FLOAT32", [2, 3]]
BoolType = ["TENSOR_BOOL8", [1]]
ConstType = ["TENSOR_FLOAT32", [1]]


def branch(operation, constant_name, constant):
    y = Input(f"y_{constant_name}", ValueType)
    z = Output(f"z_{constant_name}", ValueType)
    k = Parameter(constant_name, ConstType, [constant])
    return Model().Operation(operation, y, k, 0).To(z)


then_model = branch("ADD", "four", 4.0)
else_model = branch("SUB", "nine", 9.0)

cond = Input("cond", BoolType)
y = Input("y", ValueType)
z = Output("z", ValueType)
main = Model().Operation("IF", cond, then_model, else_model, y).To(z)

quant8 = DataTypeConverter("quant8", scale=0.5, zeroPoint=40)
quant8_signed = DataTypeConverter("quant8_signed", scale=1.0, zeroPoint=-10)

data = [-6.0, -2.0, 0.0, 3.0, 7.0, 12.0]
Example({
    cond: [True],
    y: data,
    z: [-2.0, 2.0, 4.0, 7.0, 11.0, 16.0],
}, model=main, name="true").AddVariations(
    "relaxed", "float16", "int32", quant8, quant8_signed).AddVariations(
    AllOutputsAsInternalCoverter())

Example({
    cond: [False],
    y: data,
    z: [-15.0, -11.0, -9.0, -6.0, -2.0, 3.0],
}, model=main, name="false").AddVariations(
    "relaxed", "float16", "int32", quant8, quant8_signed).AddVariations(
    AllOutputsAsInternalCoverter())
