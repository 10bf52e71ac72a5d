# WHILE (HAL 1.3) that never ends: while x > limit: x = x + 1.5, from x = 0.5 with
# limit = -1. In float the value only grows; in quant8 (scale 0.5, zero point 10: range
# [-5, 122.5]) and quant8_signed (scale 0.5, zero point -100: range [-14, 113.5]) it
# saturates at the top of the range, which is still above the limit, so the condition
# stays true for ever there too. The execution must stop at the loop timeout with
# MISSED_DEADLINE_*: the example expects failure, and the harness makes the run with a
# short loop timeout itself (no dynamic-output-shape run). The output value is never
# compared. Golden values: none compared (conformance/specs/oracles/control_flow_oracle.py
# runs the loop in each type with an iteration budget, finds it endless, and lists the
# output in HAND_DERIVED).
ValueType = ["TENSOR_FLOAT32", [1]]
BoolType = ["TENSOR_BOOL8", [1]]

cond_x = Input("cond_x", ValueType)
cond_limit = Input("cond_limit", ValueType)
go = Output("go", BoolType)
condition = Model().Operation("GREATER", cond_x, cond_limit).To(go)

body_x = Input("body_x", ValueType)
body_limit = Input("body_limit", ValueType)
step = Parameter("step", ValueType, [1.5])
body_x_out = Output("body_x_out", ValueType)
body = Model().Operation("ADD", body_x, step, 0).To(body_x_out)
body.IdentifyInputs(body_x, body_limit).IdentifyOutputs(body_x_out)

x0 = Input("x0", ValueType)
limit = Input("limit", ValueType)
x = Output("x", ValueType)
main = Model().Operation("WHILE", condition, body, x0, limit).To(x)

quant8 = DataTypeConverter("quant8", scale=0.5, zeroPoint=10)
quant8_signed = DataTypeConverter("quant8_signed", scale=0.5, zeroPoint=-100)

Example({x0: [0.5], limit: [-1.0], x: [0.0]}, model=main).AddVariations(
    "relaxed", "float16", quant8, quant8_signed).ExpectFailure().DisableDynamicOutputShapeVariation()
