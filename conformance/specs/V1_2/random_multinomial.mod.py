# RANDOM_MULTINOMIAL: the samples are ignored as values (the generator is not
# fixed by the definition); the harness counts, row by row, how often each
# class was drawn and checks the frequency is within the example's
# multinomial tolerance of softmax(logits) (VTS's check, generalised to any
# batch and sample count). Hand-derived probabilities are in the comments;
# each tolerance is at least 4.4 standard deviations of the frequency for
# the sample count used, so a correct sampler fails with a negligible chance.
# Covers one and several rows, classes of probability 0 (logit -1000), sample
# counts not a multiple of 4, float32/relaxed/float16, seeds as a constant and
# as an input, and seeds {0, 0} ("fresh randomness" in the CPU reference) on
# logits so peaked that every sample is certain.

logits = Input("logits", "TENSOR_FLOAT32", "{1, 4}")
seeds = Parameter("seeds", "TENSOR_INT32", "{2}", [37, 42])
out = IgnoredOutput("out", "TENSOR_INT32", "{1, 4096}")
Model().Operation("RANDOM_MULTINOMIAL", logits, 4096, seeds).To(out)
# logits ln(1), ln(2), ln(3), ln(4): probabilities 0.1, 0.2, 0.3, 0.4. With
# 4096 samples the largest standard deviation is sqrt(0.24 / 4096) = 0.0077.
Example({
    logits: [0.0, 0.6931472, 1.0986123, 1.3862944],
    out: [0] * 4096,
}).WithMultinomialDistributionTolerance(0.05).AddVariations(
    "relaxed", "float16").AddInput(seeds)

logits3 = Input("logits3", "TENSOR_FLOAT32", "{3, 5}")
seeds3 = Parameter("seeds3", "TENSOR_INT32", "{2}", [-5, 123456789])
out3 = IgnoredOutput("out3", "TENSOR_INT32", "{3, 2001}")
Model("batches").Operation("RANDOM_MULTINOMIAL", logits3, 2001, seeds3).To(out3)
# Row 0: uniform, 0.2 each. Row 1: 0.5 for classes 1 and 3, 0 for the others
# (exp(-1002) is 0 in double). Row 2: logits 1 and 1 + ln(3): 0.25 and 0.75.
# Largest standard deviation sqrt(0.25 / 2001) = 0.0112; tolerance 0.07.
Example({
    logits3: [0.0, 0.0, 0.0, 0.0, 0.0,
              -1000.0, 2.0, -1000.0, 2.0, -1000.0,
              1.0, 2.0986123, -1000.0, -1000.0, -1000.0],
    out3: [0] * (3 * 2001),
}).WithMultinomialDistributionTolerance(0.07).AddVariations(
    "relaxed", "float16").AddInput(seeds3)

logitsp = Input("logitsp", "TENSOR_FLOAT32", "{2, 3}")
seedsp = Parameter("seedsp", "TENSOR_INT32", "{2}", [0, 0])
outp = IgnoredOutput("outp", "TENSOR_INT32", "{2, 7}")
Model("peaked").Operation("RANDOM_MULTINOMIAL", logitsp, 7, seedsp).To(outp)
# Row 0 draws class 1 (the others have probability exp(-100) < 1e-43), row 1
# class 2 (exp(-100) again): every frequency is 0 or 1, whatever the seeds.
Example({
    logitsp: [0.0, 100.0, 0.0, -50.0, -50.0, 50.0],
    outp: [0] * 14,
}).WithMultinomialDistributionTolerance(0.001).AddVariations(
    "relaxed", "float16").AddInput(seedsp)
