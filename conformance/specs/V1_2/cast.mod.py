# CAST (HAL 1.2) between every pair of TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32
# and TENSOR_QUANT8_ASYMM. The stored values are converted as C++ conversions do;
# quantization parameters are ignored on both sides (the quant8 input carries
# scale 0.5 zp 128, quant8 outputs scale 2.0 zp 3, and neither changes a value):
# - to int32: truncation toward zero (-1.75 -> -1, -0.5 -> 0, 255.5 -> 255);
# - to quant8: clamp to [0, 255] first, then truncate (-300.5 -> 0, 255.5 -> 255,
#   256 -> 255, 1.5 -> 1);
# - to float: the nearest representable value (int32 2049 -> float16 2048, the tie
#   going to the even neighbour; +-70000 overflow float16 to +-inf).
# Golden values: conformance/specs/oracles/conversion_oracle.py (an independent
# element-by-element implementation of these rules).
inf = float("inf")

TYPES = {
    "float16": "TENSOR_FLOAT16",
    "float32": "TENSOR_FLOAT32",
    "int32": "TENSOR_INT32",
    "quant8": "TENSOR_QUANT8_ASYMM",
}
INPUT_QUANT = {"quant8": ", 0.5f, 128"}
OUTPUT_QUANT = {"quant8": ", 2.0f, 3"}

# Source data: shape and stored values. Every float value is exact in float16.
FRACTIONS = [-300.5, -1.75, -0.5, 0.0, 0.75, 1.5, 100.25, 255.5, 256.0, 1000.0]
DATA = {
    "float16": ("{2, 5}", FRACTIONS),
    "float32": ("{2, 5}", FRACTIONS),
    "int32": ("{2, 5}", [-70000, -300, -1, 0, 1, 100, 255, 256, 2049, 70000]),
    "quant8": ("{2, 3}", [0, 1, 127, 128, 200, 255]),
}
FRACTIONS_TO_INT32 = [-300, -1, 0, 0, 0, 1, 100, 255, 256, 1000]
FRACTIONS_TO_QUANT8 = [0, 0, 0, 0, 0, 1, 100, 255, 255, 255]
QUANT8_VALUES = [0, 1, 127, 128, 200, 255]
EXPECTED = {
    "float16": {
        "float16": FRACTIONS,
        "float32": FRACTIONS,
        "int32": FRACTIONS_TO_INT32,
        "quant8": FRACTIONS_TO_QUANT8,
    },
    "float32": {
        "float16": FRACTIONS,
        "float32": FRACTIONS,
        "int32": FRACTIONS_TO_INT32,
        "quant8": FRACTIONS_TO_QUANT8,
    },
    "int32": {
        "float16": [-inf, -300.0, -1.0, 0.0, 1.0, 100.0, 255.0, 256.0, 2048.0, inf],
        "float32": [-70000.0, -300.0, -1.0, 0.0, 1.0, 100.0, 255.0, 256.0, 2049.0, 70000.0],
        "int32": [-70000, -300, -1, 0, 1, 100, 255, 256, 2049, 70000],
        "quant8": [0, 0, 0, 0, 1, 100, 255, 255, 255, 255],
    },
    "quant8": {
        "float16": [0.0, 1.0, 127.0, 128.0, 200.0, 255.0],
        "float32": [0.0, 1.0, 127.0, 128.0, 200.0, 255.0],
        "int32": QUANT8_VALUES,
        "quant8": QUANT8_VALUES,
    },
}

for source in TYPES:
    for target in TYPES:
        dims, values = DATA[source]
        i = Input("in", TYPES[source], dims + INPUT_QUANT.get(source, ""))
        o = Output("out", TYPES[target], dims + OUTPUT_QUANT.get(target, ""))
        Model(f"{source}_to_{target}").Operation("CAST", i).To(o)
        example = Example({i: values, o: EXPECTED[source][target]})
        # Relaxed float32 computation: the data stays exact in float16 (int32 data does not).
        if "float32" in (source, target) and source != "int32":
            example.AddVariations("relaxed")

# float32 beyond float16's range and precision (no relaxed variation):
# to float16 -70000 -> -inf, 65519 -> 65504 (below the midpoint to infinity),
# 70000 and 1e9 -> inf; to int32 exact; to quant8 clamped.
LARGE = [-70000.0, 65519.0, 70000.0, 1000000000.0]
LARGE_EXPECTED = {
    "float16": [-inf, 65504.0, inf, inf],
    "float32": LARGE,
    "int32": [-70000, 65519, 70000, 1000000000],
    "quant8": [0, 255, 255, 255],
}
for target in TYPES:
    i = Input("in", "TENSOR_FLOAT32", "{4}")
    o = Output("out", TYPES[target], "{4}" + OUTPUT_QUANT.get(target, ""))
    Model(f"float32_large_to_{target}").Operation("CAST", i).To(o)
    Example({i: LARGE, o: LARGE_EXPECTED[target]})
