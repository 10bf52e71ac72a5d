# IF (HAL 1.3) whose condition has no value (a constant of lifetime NO_VALUE): the model
# is well formed, but the operation cannot run, so the example expects failure (a driver
# must not report the IF supported, or must fail the preparation or the execution). The
# output values are never compared; they are what the then branch (x + 1) would give.
# Golden values: none compared (conformance/specs/oracles/control_flow_oracle.py lists the
# output in HAND_DERIVED).
ValueType = ["TENSOR_FLOAT32", [3]]
BoolType = ["TENSOR_BOOL8", [1]]


def branch(operation, suffix):
    x = Input(f"x_{suffix}", ValueType)
    y = Output(f"y_{suffix}", ValueType)
    one = Parameter(f"one_{suffix}", ["TENSOR_FLOAT32", [1]], [1.0])
    return Model().Operation(operation, x, one, 0).To(y)


cond = Parameter("cond", BoolType, None)
x = Input("x", ValueType)
y = Output("y", ValueType)
main = Model().Operation("IF", cond, branch("ADD", "then"), branch("SUB", "else"), x).To(y)

quant8 = DataTypeConverter("quant8", scale=1.0, zeroPoint=100)
quant8_signed = DataTypeConverter("quant8_signed", scale=1.0, zeroPoint=0)

Example({x: [2.0, -4.0, 7.0], y: [3.0, -3.0, 8.0]}, model=main).AddVariations(
    "relaxed", "float16", "int32", quant8, quant8_signed).ExpectFailure()
