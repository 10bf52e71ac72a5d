# EMBEDDING_LOOKUP on int32 and quant8 values (documented since 1.2).
# Hand-derived: row r of the values is written so its index shows; lookups
# [2, 0, 2, 1] pick rows 2, 0, 2 and 1. The quant8 variation keeps the
# output's scale and zero point equal to the values' (the operation copies
# bytes), with a non-zero zero point: 0.5 * (q - 100).

lookups = Input("lookups", "TENSOR_INT32", "{4}")
values = Input("values", "TENSOR_FLOAT32", "{3, 2}")
out = Output("out", "TENSOR_FLOAT32", "{4, 2}")
Model().Operation("EMBEDDING_LOOKUP", lookups, values).To(out)
quant8 = DataTypeConverter().Identify({
    values: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
    out: ("TENSOR_QUANT8_ASYMM", 0.5, 100),
})
# Row r: [10r - 20, 10r + 0.5]; quant8 rows [60, 101], [80, 121], [100, 141].
Example({
    lookups: [2, 0, 2, 1],
    values: [-20.0, 0.5, -10.0, 10.5, 0.0, 20.5],
    out: [0.0, 20.5, -20.0, 0.5, 0.0, 20.5, -10.0, 10.5],
}).AddVariations("int32", quant8, includeDefault=False)

# Rank-4 quant8 values [2, 1, 2, 2] written directly, at scale 0.25 and zero
# point 255: any byte is copied as it is (0 and 255 included).
lookups4 = Input("lookups4", "TENSOR_INT32", "{3}")
values4 = Input("values4", ("TENSOR_QUANT8_ASYMM", [2, 1, 2, 2], 0.25, 255))
out4 = Output("out4", ("TENSOR_QUANT8_ASYMM", [3, 1, 2, 2], 0.25, 255))
Model("quant8_rank4").Operation("EMBEDDING_LOOKUP", lookups4, values4).To(out4)
Example({
    lookups4: [1, 0, 1],
    values4: [0, 1, 2, 3, 252, 253, 254, 255],
    out4: [252, 253, 254, 255, 0, 1, 2, 3, 252, 253, 254, 255],
})

# Int32 values written directly, with the int32 extremes.
lookupsi = Input("lookupsi", "TENSOR_INT32", "{2}")
valuesi = Input("valuesi", "TENSOR_INT32", "{2, 3}")
outi = Output("outi", "TENSOR_INT32", "{2, 3}")
Model("int32_extremes").Operation("EMBEDDING_LOOKUP", lookupsi, valuesi).To(outi)
Example({
    lookupsi: [1, 1],
    valuesi: [7, 8, 9, -2147483648, 0, 2147483647],
    outi: [-2147483648, 0, 2147483647, -2147483648, 0, 2147483647],
})
