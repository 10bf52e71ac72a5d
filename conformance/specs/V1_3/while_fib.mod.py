# WHILE (HAL 1.3) computing a recurrence, the Pell numbers: starting from (a, b) and a
# counter i = 0, while i < n: (a, b, i) = (b + 0, a + 2 b, i + 1). From (0, 1) the pairs
# are (1, 2), (2, 5), (5, 12), (12, 29), (29, 70). The condition reads only the counter
# and n (it declares a and b as inputs it ignores); the body ignores n. The body holds
# constants of its own (the float 0 and the int32 1). They are given by value: the
# generator emits every constant as CONSTANT_COPY whatever Configuration.use_shm_for_weights
# says (docs/spec-language.md), and by-reference constants come from the harness's
# constant-pool runs instead. n = 0 runs no iteration: the
# outputs are the initial values, (2, 7), which one iteration would move by 5 and 9
# (beyond the tolerance of 1 that int32 and quantized outputs have). The second model leaves the counter output unused (a
# temporary nobody reads). The condition and body are named SubgraphReferences, and the
# quantized variations are nested converters: the main graph's converter names, for each
# reference, the converter of that subgraph's own operands (scale 1, zero point 0 for
# quant8 and -128 for quant8_signed; the counters stay TENSOR_INT32).
# Golden values: conformance/specs/oracles/control_flow_oracle.py
FloatType = ["TENSOR_FLOAT32", [1]]
CounterType = ["TENSOR_INT32", [1]]
BoolType = ["TENSOR_BOOL8", [1]]


def quant_pair(operands):
    """The quant8 and quant8_signed targets of some float operands."""
    return (
        {op: ["TENSOR_QUANT8_ASYMM", 1.0, 0] for op in operands},
        {op: ["TENSOR_QUANT8_ASYMM_SIGNED", 1.0, -128] for op in operands},
    )


def condition_model(tag):
    a = Input(f"cond_a_{tag}", FloatType)
    b = Input(f"cond_b_{tag}", FloatType)
    i = Input(f"cond_i_{tag}", CounterType)
    n = Input(f"cond_n_{tag}", CounterType)
    go = Output(f"cond_go_{tag}", BoolType)
    model = Model().Operation("LESS", i, n).To(go)
    model.IdentifyInputs(a, b, i, n).IdentifyOutputs(go)
    return SubgraphReference(f"cond_{tag}", model), quant_pair([a, b])


def body_model(tag):
    a = Input(f"body_a_{tag}", FloatType)
    b = Input(f"body_b_{tag}", FloatType)
    i = Input(f"body_i_{tag}", CounterType)
    n = Input(f"body_n_{tag}", CounterType)
    zero = Parameter(f"zero_{tag}", FloatType, [0.0])
    one = Parameter(f"one_{tag}", CounterType, [1])
    twice_b = Internal(f"twice_b_{tag}", FloatType)
    a_out = Output(f"body_a_out_{tag}", FloatType)
    b_out = Output(f"body_b_out_{tag}", FloatType)
    i_out = Output(f"body_i_out_{tag}", CounterType)
    model = Model()
    model.Operation("ADD", b, zero, 0).To(a_out)
    model.Operation("ADD", b, b, 0).To(twice_b)
    model.Operation("ADD", a, twice_b, 0).To(b_out)
    model.Operation("ADD", i, one, 0).To(i_out)
    model.IdentifyInputs(a, b, i, n).IdentifyOutputs(a_out, b_out, i_out)
    return SubgraphReference(f"body_{tag}", model), quant_pair([a, b, zero, twice_b, a_out, b_out])


def pell_model(name, unused_output=False):
    tag = name
    cond, (cond_q8, cond_q8s) = condition_model(tag)
    body, (body_q8, body_q8s) = body_model(tag)
    a0 = Input(f"a0_{tag}", FloatType)
    b0 = Input(f"b0_{tag}", FloatType)
    n = Input(f"n_{tag}", CounterType)
    i0 = Parameter(f"i0_{tag}", CounterType, [0])
    a = Output(f"a_{tag}", FloatType)
    b = Output(f"b_{tag}", FloatType)
    if unused_output:
        i = Internal(f"i_{tag}", CounterType)
    else:
        i = Output(f"i_{tag}", CounterType)
    model = Model(name).Operation("WHILE", cond, body, a0, b0, i0, n).To(a, b, i)
    model.IdentifyInputs(a0, b0, n)
    main_q8, main_q8s = quant_pair([a0, b0, a, b])
    quant8 = DataTypeConverter(name="quant8").Identify(
        {**main_q8, cond: DataTypeConverter().Identify(cond_q8),
         body: DataTypeConverter().Identify(body_q8)})
    quant8_signed = DataTypeConverter(name="quant8_signed").Identify(
        {**main_q8s, cond: DataTypeConverter().Identify(cond_q8s),
         body: DataTypeConverter().Identify(body_q8s)})
    return model, (a0, b0, n, a, b, i), (quant8, quant8_signed)


# (example name, a0, b0, n, a, b): the oracle's while_fib lines.
cases = [
    ("n_0", 2.0, 7.0, 0, 2.0, 7.0),
    ("n_1", 0.0, 1.0, 1, 1.0, 2.0),
    ("n_2", 0.0, 1.0, 2, 2.0, 5.0),
    ("n_5", 0.0, 1.0, 5, 29.0, 70.0),
    ("n_3_from_2_3", 2.0, 3.0, 3, 19.0, 46.0),
]

model, (a0, b0, n, a, b, i), (quant8, quant8_signed) = pell_model("all_outputs")
for case, a0_v, b0_v, n_v, a_v, b_v in cases:
    Example({a0: [a0_v], b0: [b0_v], n: [n_v], a: [a_v], b: [b_v], i: [n_v]},
            model=model, name=case).AddVariations(
        "relaxed", "float16", "int32", quant8, quant8_signed)

model, (a0, b0, n, a, b, i), (quant8, quant8_signed) = pell_model("unused_output", True)
for case, a0_v, b0_v, n_v, a_v, b_v in cases[::3]:
    Example({a0: [a0_v], b0: [b0_v], n: [n_v], a: [a_v], b: [b_v]},
            model=model, name=case).AddVariations(
        "relaxed", "float16", "int32", quant8, quant8_signed)

