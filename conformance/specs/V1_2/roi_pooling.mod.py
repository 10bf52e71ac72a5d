# ROI_POOLING: NHWC and NCHW, float32, relaxed, float16 and quant8 (the output
# keeps the feature map's quantization; rois TENSOR_QUANT16_ASYMM at 0.125).
# Covers rois whose scaled corners round half away from zero (0.5 -> 1, 2.5 -> 3),
# bins that overlap (floor of the start, ceil of the end), rois on the right and
# bottom border whose bins are clipped to nothing (an empty bin gives 0, the zero
# point in quant8), ratios 0.5 and (1, 2), and two images with a batch index per roi.
# Golden values: conformance/specs/oracles/detection_oracle.py, cases pool and
# pool_batches (bin edges computed in float32, and checked to be the same in float16).
layout = BoolScalar("layout", False)  # NHWC

# [1, 4, 5, 1] features, image coordinates at half the feature scale (ratio 0.5).
i1 = Input("features", "TENSOR_FLOAT32", "{1, 4, 5, 1}")
r1 = Input("rois", "TENSOR_FLOAT32", "{4, 4}")
b1 = Input("batches", "TENSOR_INT32", "{4}")
o1 = Output("out", "TENSOR_FLOAT32", "{4, 2, 2, 1}")
Model().Operation("ROI_POOLING", i1, r1, b1, 2, 2, 0.5, 0.5, layout).To(o1)
quant8 = DataTypeConverter().Identify({
    i1: ("TENSOR_QUANT8_ASYMM", 0.5, 10),
    r1: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    o1: ("TENSOR_QUANT8_ASYMM", 0.5, 10),
})
# roi 0: columns 0..5 in bins [0,3) [3,5); rows 0..4 in bins [0,3) [2,4) (overlap).
# roi 1: x 0.5, 2.5 -> 1, 3: columns [1,3) [2,4); y 1.5, 2.5 -> 2, 3: rows [2,3) [3,4).
# roi 2: x 5, 5 -> both column bins start at 5 = width: empty, 0.
# roi 3: x 4, 5: columns [4,5) and [5,5) (empty); rows [0,1) [1,2).
Example({
    i1: [1, 5, 2, 8, 3,
         -1, 4, 9, 0, 6,
         7, -3, 2, 5, 1,
         0, 6, -2, 4, 10],
    r1: [0, 0, 2.5, 2, 0.25, 0.75, 1.25, 1.25, 2.5, 1, 2.5, 2, 2, 0, 2.5, 0.5],
    b1: [0, 0, 0, 0],
    o1: [9, 8, 7, 10, 2, 5, 6, 4, 0, 0, 0, 0, 3, 0, 6, 0],
}).AddNchw(i1, o1, layout).AddVariations("relaxed", "float16", quant8)

# Two images of [3, 4, 2], image 3x8 (height ratio 1, width ratio 2), 2x3 bins.
# roi 0 (image 1): the whole map; roi 1 (image 0): x 1, 2.5 -> 1, 3, y 1..2;
# roi 2 (image 1): x 3..4, y 2..3: bins past the right and bottom edges are empty.
i2 = Input("features", "TENSOR_FLOAT32", "{2, 3, 4, 2}")
r2 = Input("rois", "TENSOR_FLOAT32", "{3, 4}")
b2 = Input("batches", "TENSOR_INT32", "{3}")
o2 = Output("out", "TENSOR_FLOAT32", "{3, 2, 3, 2}")
Model("batches").Operation("ROI_POOLING", i2, r2, b2, 2, 3, 1.0, 2.0, layout).To(o2)
quant8 = DataTypeConverter().Identify({
    i2: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
    r2: ("TENSOR_QUANT16_ASYMM", 0.125, 0),
    o2: ("TENSOR_QUANT8_ASYMM", 0.25, 128),
})
Example({
    i2: [3.0, -1.0, 0.5, 2.0, -2.0, 4.0, 1.0, 1.5,
         -0.5, 0.0, 2.5, -3.0, 5.0, 1.0, -1.5, 3.5,
         0.0, 2.0, 1.0, -1.0, 4.5, 0.5, -2.5, 3.0,
         1.5, -0.5, -1.0, 2.5, 0.0, 3.0, 2.0, -2.0,
         3.5, 1.0, -3.0, 0.5, 1.0, 4.0, 0.5, -1.5,
         -2.0, 2.0, 4.0, 0.0, -0.5, 1.5, 2.5, 1.0],
    r2: [0, 0, 8, 3, 2, 1, 5, 2, 6, 2, 8, 3],
    b2: [1, 0, 1],
    o2: [3.5, 2.5, 2, 4, 2, -1.5, 4, 2, 4, 1.5, 2.5, 1,
         2.5, -3, 5, 1, -1.5, 3.5, 1, -1, 4.5, 0.5, -2.5, 3,
         2.5, 1, 2.5, 1, 0, 0, 0, 0, 0, 0, 0, 0],
}).AddNchw(i2, o2, layout).AddVariations("relaxed", "float16", quant8)
