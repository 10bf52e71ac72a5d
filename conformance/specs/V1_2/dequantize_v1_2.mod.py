# DEQUANTIZE in HAL 1.2: TENSOR_FLOAT16 outputs, TENSOR_QUANT8_SYMM and
# TENSOR_QUANT8_SYMM_PER_CHANNEL inputs. out = scale * (q - zeroPoint) computed in
# float32 and rounded to the output type (per channel: the scale of the element's
# channel along channelDim). Golden values by hand below, checked with
# conformance/specs/oracles/conversion_oracle.py.
inf = float("inf")

# TENSOR_QUANT8_ASYMM -> float16 (and float32, relaxed): scale 0.5, zero point 127.
i = Input("in", "TENSOR_QUANT8_ASYMM", "{2, 4}, 0.5f, 127")
o = Output("out", "TENSOR_FLOAT32", "{2, 4}")
Model().Operation("DEQUANTIZE", i).To(o)

Example({
    i: [0, 1, 126, 127, 128, 254, 255, 200],
    o: [-63.5, -63.0, -0.5, 0.0, 0.5, 63.5, 64.0, 36.5],
}).AddVariations("float16", "relaxed", includeDefault=False)

# float16 overflow: scale 300, zero point 0: 300 * [0, 1, 218, 219, 255, 10] =
# [0, 300, 65400, 65700, 76500, 3000]; in float16 65400 rounds to 65408 (a multiple
# of 32), and 65700 and 76500 are past the largest float16 (65504, inf beyond 65520).
a = Input("a", "TENSOR_QUANT8_ASYMM", "{6}, 300.0f, 0")
b = Output("b", "TENSOR_FLOAT16", "{6}")
Model("float16_overflow").Operation("DEQUANTIZE", a).To(b)

Example({a: [0, 1, 218, 219, 255, 10], b: [0.0, 300.0, 65408.0, inf, inf, 3000.0]})

# TENSOR_QUANT8_SYMM (zero point 0), scale 0.25, negative values:
# [-128, -127, -1, 0, 1, 64, 127, -64] / 4.
s = Input("s", "TENSOR_QUANT8_SYMM", "{2, 2, 2}, 0.25f, 0")
t = Output("t", "TENSOR_FLOAT32", "{2, 2, 2}")
Model("symm").Operation("DEQUANTIZE", s).To(t)

Example({
    s: [-128, -127, -1, 0, 1, 64, 127, -64],
    t: [-32.0, -31.75, -0.25, 0.0, 0.25, 16.0, 31.75, -16.0],
}).AddVariations("relaxed", "float16")

# Per channel along dimension 1 of {2, 3}, scales [0.5, 0.25, 2.0]:
# row 0 [-4, 2, -8] -> [-2, 0.5, -16]; row 1 [8, 127, -128] -> [4, 31.75, -256].
p = Input("p", "TENSOR_QUANT8_SYMM_PER_CHANNEL", "{2, 3}",
          extraParams=SymmPerChannelQuantParams(channelDim=1, scales=[0.5, 0.25, 2.0]))
q = Output("q", "TENSOR_FLOAT32", "{2, 3}")
Model("channel_dim_1").Operation("DEQUANTIZE", p).To(q)

Example({
    p: [-4, 2, -8, 8, 127, -128],
    q: [-2.0, 0.5, -16.0, 4.0, 31.75, -256.0],
}).AddVariations("relaxed", "float16")

# Per channel along dimension 0 of {3, 2, 2}, scales [0.125, 1.5, 4.0]:
# channel 0 [1, -1, 2, -2] / 8; channel 1 [10, 20, 30, 40] * 1.5;
# channel 2 [-127, 127, 3, -3] * 4.
m = Input("m", "TENSOR_QUANT8_SYMM_PER_CHANNEL", "{3, 2, 2}",
          extraParams=SymmPerChannelQuantParams(channelDim=0, scales=[0.125, 1.5, 4.0]))
n = Output("n", "TENSOR_FLOAT32", "{3, 2, 2}")
Model("channel_dim_0").Operation("DEQUANTIZE", m).To(n)

Example({
    m: [1, -1, 2, -2, 10, 20, 30, 40, -127, 127, 3, -3],
    n: [0.125, -0.125, 0.25, -0.25, 15.0, 30.0, 45.0, 60.0, -508.0, 508.0, 12.0, -12.0],
}).AddVariations("float16")

# Zero-sized input (accepted since HAL 1.2): a SLICE of size 0 along axis 1 feeds
# DEQUANTIZE, whose output is then {2, 0} with no data.
zi = Input("zi", "TENSOR_QUANT8_ASYMM", "{2, 2}, 0.5f, 128")
zs = Internal("zs", "TENSOR_QUANT8_ASYMM", "{2, 0}, 0.5f, 128")
zo = Output("zo", "TENSOR_FLOAT32", "{2, 0}")
Model("zero_sized").Operation("SLICE", zi, [0, 0], [2, 0]).To(zs).Operation("DEQUANTIZE", zs).To(zo)

Example({zi: [1, 2, 3, 4], zo: []}).AddVariations("float16")
