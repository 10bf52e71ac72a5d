# IF (HAL 1.3) with a constant condition: out = (cond ? a + b : b - a), cond a TENSOR_BOOL8
# constant of the main graph, true and false, written as upstream does by value and then
# with Configuration.use_shm_for_weights (by reference). The generator emits both as
# CONSTANT_COPY (docs/spec-language.md: the harness's constant-pool runs make the
# by-reference forms), so the "_reference" examples repeat the "_copy" ones under their
# upstream-style names. The else branch takes its two inputs in the other order, so a
# driver that maps branch inputs wrongly, or runs the branch not chosen, fails. quant8:
# scale 0.25, zero point 64; quant8_signed: scale 0.25, zero point -5 (every value exact).
# Golden values: conformance/specs/oracles/control_flow_oracle.py
ValueType = ["TENSOR_FLOAT32", [3]]
BoolType = ["TENSOR_BOOL8", [1]]

a_data = [1.0, 5.0, -3.0]
b_data = [4.0, -2.0, 8.0]
goldens = {True: [5.0, 3.0, 5.0], False: [3.0, -7.0, 11.0]}


def then_branch():
    a = Input("then_a", ValueType)
    b = Input("then_b", ValueType)
    out = Output("then_sum", ValueType)
    return Model().Operation("ADD", a, b, 0).To(out).IdentifyInputs(a, b)


def else_branch():
    a = Input("else_a", ValueType)
    b = Input("else_b", ValueType)
    out = Output("else_diff", ValueType)
    # Without IdentifyInputs the inputs would follow their first use: (b, a).
    return Model().Operation("SUB", b, a, 0).To(out).IdentifyInputs(a, b)


for by_reference in (False, True):
    Configuration.use_shm_for_weights = by_reference
    for value in (True, False):
        cond = Parameter("cond", BoolType, [value])
        a = Input("a", ValueType)
        b = Input("b", ValueType)
        out = Output("out", ValueType)
        main = Model().Operation("IF", cond, then_branch(), else_branch(), a, b).To(out)
        quant8 = DataTypeConverter("quant8", scale=0.25, zeroPoint=64)
        quant8_signed = DataTypeConverter("quant8_signed", scale=0.25, zeroPoint=-5)
        name = ("true" if value else "false") + ("_reference" if by_reference else "_copy")
        Example({a: a_data, b: b_data, out: goldens[value]}, model=main, name=name).AddVariations(
            "relaxed", "float16", "int32", quant8, quant8_signed)
Configuration.use_shm_for_weights = False
