# RANK (HAL 1.3): the number of dimensions of the input tensor, as an INT32 scalar
# model output (the first operation whose output is a scalar: the request gives it a
# 4-byte buffer). Inputs of several operand types and of ranks 1 to 6; the values
# never matter. Models holding RANK have no dynamic-output-shape runs (VTS 1.3 leaves
# them out). Golden values: conformance/specs/oracles/newops_oracle.py (also evident:
# the count of the declared dimensions).
i1 = Input("in", "TENSOR_FLOAT32", "{4}")
o1 = Output("out", "INT32", "{}")
Model().Operation("RANK", i1).To(o1)
Example({i1: [1.0, -2.0, 3.5, 0.0], o1: [1]}).AddVariations("relaxed", "float16")

i2 = Input("in", "TENSOR_FLOAT32", "{2, 3}")
o2 = Output("out", "INT32", "{}")
Model("rank2").Operation("RANK", i2).To(o2)
Example({i2: [0.5] * 6, o2: [2]}).AddVariations("relaxed", "float16")

i3 = Input("in", "TENSOR_INT32", "{1, 2, 2}")
o3 = Output("out", "INT32", "{}")
Model("int32").Operation("RANK", i3).To(o3)
Example({i3: [-7, 0, 7, 2147483647], o3: [3]})

i4 = Input("in", "TENSOR_QUANT8_ASYMM", "{1, 1, 2, 2}, 0.5f, 128")
o4 = Output("out", "INT32", "{}")
Model("quant8").Operation("RANK", i4).To(o4)
Example({i4: [0, 128, 200, 255], o4: [4]})

i5 = Input("in", "TENSOR_BOOL8", "{1, 2, 1, 1, 2}")
o5 = Output("out", "INT32", "{}")
Model("bool8").Operation("RANK", i5).To(o5)
Example({i5: [True, False, False, True], o5: [5]})

i6 = Input("in", "TENSOR_QUANT16_SYMM", "{1, 1, 1, 1, 1, 2}, 0.25f, 0")
o6 = Output("out", "INT32", "{}")
Model("quant16_symm").Operation("RANK", i6).To(o6)
Example({i6: [-32768, 32767], o6: [6]})

i7 = Input("in", "TENSOR_QUANT16_ASYMM", "{3, 1}, 0.125f, 32768")
o7 = Output("out", "INT32", "{}")
Model("quant16_asymm").Operation("RANK", i7).To(o7)
Example({i7: [0, 32768, 65535], o7: [2]})

i8 = Input("in", "TENSOR_QUANT8_SYMM", "{2, 1, 2}, 0.5f, 0")
o8 = Output("out", "INT32", "{}")
Model("quant8_symm").Operation("RANK", i8).To(o8)
Example({i8: [-128, -1, 0, 127], o8: [3]})

i9 = Input("in", ("TENSOR_QUANT8_SYMM_PER_CHANNEL", [2, 2]),
           extraParams=SymmPerChannelQuantParams(channelDim=0, scales=[0.5, 0.25]))
o9 = Output("out", "INT32", "{}")
Model("quant8_per_channel").Operation("RANK", i9).To(o9)
Example({i9: [-127, 0, 1, 127], o9: [2]})

i10 = Input("in", "TENSOR_FLOAT16", "{1, 2, 1, 2}")
o10 = Output("out", "INT32", "{}")
Model("float16").Operation("RANK", i10).To(o10)
Example({i10: [1.0, 2.0, 3.0, 4.0], o10: [4]})

i11 = Input("in", "TENSOR_QUANT8_ASYMM_SIGNED", "{2, 2, 1, 1, 1}, 0.5f, -3")
o11 = Output("out", "INT32", "{}")
Model("quant8_signed").Operation("RANK", i11).To(o11)
Example({i11: [-128, -3, 0, 127], o11: [5]})
