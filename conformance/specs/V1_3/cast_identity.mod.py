# CAST's identity forms (HAL 1.3): TENSOR_BOOL8, TENSOR_QUANT16_ASYMM,
# TENSOR_QUANT16_SYMM, TENSOR_QUANT8_SYMM and TENSOR_QUANT8_ASYMM_SIGNED, each to itself
# (TENSOR_INT32 to itself is a 1.2 form): the stored values are copied unchanged (the
# output carries the input's quantization). Golden values by hand: the output is the
# input.
FORMS = [
    ("bool8", "TENSOR_BOOL8", "", [True, False, False, True, True, False]),
    ("quant16_asymm", "TENSOR_QUANT16_ASYMM", ", 0.125f, 3", [0, 1, 3, 1000, 40000, 65535]),
    ("quant16_symm", "TENSOR_QUANT16_SYMM", ", 0.5f, 0", [-32768, -300, -1, 0, 7, 32767]),
    ("quant8_symm", "TENSOR_QUANT8_SYMM", ", 2.0f, 0", [-128, -64, -1, 0, 1, 127]),
    ("quant8_signed", "TENSOR_QUANT8_ASYMM_SIGNED", ", 0.25f, -3", [-128, -4, -3, 0, 99, 127]),
]
for name, type_, quant, data in FORMS:
    i = Input("in", type_, "{2, 3}" + quant)
    o = Output("out", type_, "{2, 3}" + quant)
    Model(name).Operation("CAST", i).To(o)
    Example({i: data, o: data})
