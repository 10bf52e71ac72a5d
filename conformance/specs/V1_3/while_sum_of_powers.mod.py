# WHILE (HAL 1.3) nested in the body of another WHILE: acc = acc0 + x * n (n + 1) / 2,
# summed as acc0 + x + 2 x + ... + n x. The outer loop carries acc (input-output) and its
# counter k (state-only: the body returns it, the WHILE does not), and reads x and n
# (input-only); each iteration runs an inner WHILE that starts v from x and adds x to it k
# times, so v = (k + 1) x, and adds v to acc. The inner WHILE is given the outer body's x
# twice, as v's initial value and as its input-only value (one operand, two uses in one
# operation). n = 0 runs neither loop: acc = acc0. The inner loop's counter starts from a
# constant of the outer body. quant8: scale 0.5, zero point 60; quant8_signed: scale 0.5,
# zero point -8 (every value and every partial sum exact and inside the range). The second
# variation group reads the WHILE's output with an ADD of zero (the output a temporary).
# Golden values: conformance/specs/oracles/control_flow_oracle.py
ValueType = ["TENSOR_FLOAT32", [2]]
CounterType = ["TENSOR_INT32", [1]]
BoolType = ["TENSOR_BOOL8", [1]]


def inner_condition():
    v = Input("inner_cond_v", ValueType)
    j = Input("inner_cond_j", CounterType)
    x = Input("inner_cond_x", ValueType)
    k = Input("inner_cond_k", CounterType)
    go = Output("inner_cond_go", BoolType)
    return Model().Operation("LESS", j, k).To(go).IdentifyInputs(v, j, x, k).IdentifyOutputs(go)


def inner_body():
    v = Input("inner_body_v", ValueType)
    j = Input("inner_body_j", CounterType)
    x = Input("inner_body_x", ValueType)
    k = Input("inner_body_k", CounterType)
    v_out = Output("inner_body_v_out", ValueType)
    j_out = Output("inner_body_j_out", CounterType)
    one = Parameter("inner_one", CounterType, [1])
    model = Model().Operation("ADD", v, x, 0).To(v_out).Operation("ADD", j, one, 0).To(j_out)
    return model.IdentifyInputs(v, j, x, k).IdentifyOutputs(v_out, j_out)


def outer_condition():
    acc = Input("outer_cond_acc", ValueType)
    k = Input("outer_cond_k", CounterType)
    x = Input("outer_cond_x", ValueType)
    n = Input("outer_cond_n", CounterType)
    go = Output("outer_cond_go", BoolType)
    return Model().Operation("LESS", k, n).To(go).IdentifyInputs(acc, k, x, n).IdentifyOutputs(go)


def outer_body():
    acc = Input("outer_body_acc", ValueType)
    k = Input("outer_body_k", CounterType)
    x = Input("outer_body_x", ValueType)
    n = Input("outer_body_n", CounterType)
    j0 = Parameter("inner_j0", CounterType, [0])
    one = Parameter("outer_one", CounterType, [1])
    v = Internal("multiple", ValueType)
    acc_out = Output("outer_body_acc_out", ValueType)
    k_out = Output("outer_body_k_out", CounterType)
    model = Model()
    model.Operation("WHILE", inner_condition(), inner_body(), x, j0, x, k).To(v)
    model.Operation("ADD", acc, v, 0).To(acc_out)
    model.Operation("ADD", k, one, 0).To(k_out)
    return model.IdentifyInputs(acc, k, x, n).IdentifyOutputs(acc_out, k_out)


acc0 = Input("acc0", ValueType)
x = Input("x", ValueType)
n = Input("n", CounterType)
k0 = Parameter("k0", CounterType, [0])
acc = Output("acc", ValueType)
main = Model().Operation("WHILE", outer_condition(), outer_body(), acc0, k0, x, n).To(acc)
main.IdentifyInputs(acc0, x, n)

quant8 = DataTypeConverter("quant8", scale=0.5, zeroPoint=60)
quant8_signed = DataTypeConverter("quant8_signed", scale=0.5, zeroPoint=-8)

# (example name, acc0, x, n, acc): the oracle's while_sum_of_powers lines.
for name, acc0_v, x_v, n_v, acc_v in [
    ("n_0", [1.0, -1.0], [3.0, -2.0], 0, [1.0, -1.0]),
    ("n_1", [1.0, -1.0], [3.0, -2.0], 1, [4.0, -3.0]),
    ("n_4", [1.0, -1.0], [3.0, -2.0], 4, [31.0, -21.0]),
    ("n_3_from_zero", [0.0, 0.0], [1.0, 2.0], 3, [6.0, 12.0]),
]:
    Example({acc0: acc0_v, x: x_v, n: [n_v], acc: acc_v}, model=main, name=name).AddVariations(
        "relaxed", "float16", "int32", quant8, quant8_signed).AddVariations(
        AllOutputsAsInternalCoverter())
