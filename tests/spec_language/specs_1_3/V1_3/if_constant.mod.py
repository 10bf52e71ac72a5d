# IF whose condition is a constant, once as a copied constant and once with
# use_shm_for_weights (a constant the harness places in shared memory), for both
# values of the condition. The branches multiply by 3 or by -1.
def branch(factor):
    x = Input("x", ("TENSOR_FLOAT32", [3]))
    y = Output("y", ("TENSOR_FLOAT32", [3]))
    k = Parameter("k", ("TENSOR_FLOAT32", [1]), [factor])
    return Model().Operation("MUL", x, k, 0).To(y)

for use_shm in (False, True):
    Configuration.use_shm_for_weights = use_shm
    for value in (True, False):
        then_model = branch(3.0)
        else_model = branch(-1.0)
        cond = Parameter("cond", ("TENSOR_BOOL8", [1]), [value])
        x = Input("x", ("TENSOR_FLOAT32", [3]))
        y = Output("y", ("TENSOR_FLOAT32", [3]))
        name = "%s_%s" % ("reference" if use_shm else "copy", "true" if value else "false")
        Model(name).Operation("IF", cond, then_model, else_model, x).To(y)
        # 3 * (1, -2, 0.5) = (3, -6, 1.5); -1 * (1, -2, 0.5) = (-1, 2, -0.5)
        expected = [3.0, -6.0, 1.5] if value else [-1.0, 2.0, -0.5]
        Example({x: [1.0, -2.0, 0.5], y: expected}).AddVariations("relaxed", "float16")
Configuration.use_shm_for_weights = False
