# L2_NORMALIZATION (HAL 1.3) of an all-zero quant8 vector: the HAL text leaves it
# undefined before 1.3 and defines it as zero since, which for a quantized output is
# its zero point (Android 11 computes this for every version; a 1.2 driver is not judged
# on it, so the model lives in the 1.3 folder). Golden values by hand (listed in
# conformance/specs/oracles/pooling_oracle.py HAND_DERIVED).
#
# Input scale 0.5, zero point 120; the output's fixed quantization 1/128, 128. Row 0:
# every byte at the zero point -> 128, 128, 128; row 1 (0, -2, 0) -> (0, -1, 0)
# -> 128, 0, 128; row 2 zeros again.
i = Input("in", "TENSOR_QUANT8_ASYMM", "{3, 3}, 0.5f, 120")
o = Output("qout", "TENSOR_QUANT8_ASYMM", "{3, 3}, 0.0078125f, 128")
Model("zero_rows").Operation("L2_NORMALIZATION", i).To(o)
Example({
    i: [120, 120, 120, 120, 116, 120, 120, 120, 120],
    o: [128, 128, 128, 128, 0, 128, 128, 128, 128],
})
