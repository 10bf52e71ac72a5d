# sum = x + x^2 + ... + x^n with two loops: the outer WHILE runs k from 1 while k <= n
# and adds x^k to the sum; its body computes x^k with an inner WHILE that starts from
# p = x, j = 1 and multiplies p by x while j < k. The inner WHILE gets the outer body's
# x twice: as the initial value of p and as an input-only value.
value_type = ("TENSOR_FLOAT32", [1])
count_type = ("TENSOR_INT32", [1])

# inner condition (p, j, k, x): j < k
ic_p = Input("ic_p", value_type)
ic_j = Input("ic_j", count_type)
ic_k = Input("ic_k", count_type)
ic_x = Input("ic_x", value_type)
ic_out = Output("ic_out", ("TENSOR_BOOL8", [1]))
inner_cond = Model().Operation("LESS", ic_j, ic_k).To(ic_out)
inner_cond.IdentifyInputs(ic_p, ic_j, ic_k, ic_x)

# inner body (p, j, k, x): (p * x, j + 1)
ib_p = Input("ib_p", value_type)
ib_j = Input("ib_j", count_type)
ib_k = Input("ib_k", count_type)
ib_x = Input("ib_x", value_type)
ib_p_next = Output("ib_p_next", value_type)
ib_j_next = Output("ib_j_next", count_type)
inner_body = Model()
inner_body.Operation("MUL", ib_p, ib_x, 0).To(ib_p_next)
inner_body.Operation("ADD", ib_j, [1], 0).To(ib_j_next)
inner_body.IdentifyInputs(ib_p, ib_j, ib_k, ib_x)
inner_body.IdentifyOutputs(ib_p_next, ib_j_next)

# outer condition (sum, k, x, n): k <= n
oc_sum = Input("oc_sum", value_type)
oc_k = Input("oc_k", count_type)
oc_x = Input("oc_x", value_type)
oc_n = Input("oc_n", count_type)
oc_out = Output("oc_out", ("TENSOR_BOOL8", [1]))
outer_cond = Model().Operation("LESS_EQUAL", oc_k, oc_n).To(oc_out)
outer_cond.IdentifyInputs(oc_sum, oc_k, oc_x, oc_n)

# outer body (sum, k, x, n): (sum + x^k, k + 1)
ob_sum = Input("ob_sum", value_type)
ob_k = Input("ob_k", count_type)
ob_x = Input("ob_x", value_type)
ob_n = Input("ob_n", count_type)
ob_power = Internal("ob_power", value_type)
ob_j_final = Internal("ob_j_final", count_type)
ob_sum_next = Output("ob_sum_next", value_type)
ob_k_next = Output("ob_k_next", count_type)
outer_body = Model()
outer_body.Operation("WHILE", inner_cond, inner_body, ob_x, [1], ob_k, ob_x).To(
    ob_power, ob_j_final)
outer_body.Operation("ADD", ob_sum, ob_power, 0).To(ob_sum_next)
outer_body.Operation("ADD", ob_k, [1], 0).To(ob_k_next)
outer_body.IdentifyInputs(ob_sum, ob_k, ob_x, ob_n)
outer_body.IdentifyOutputs(ob_sum_next, ob_k_next)

x = Input("x", value_type)
n = Input("n", count_type)
total = Output("total", value_type)
k_final = Output("k_final", count_type)
Model().Operation("WHILE", outer_cond, outer_body, [0.0], [1], x, n).To(total, k_final)

# 2 + 4 + 8 = 14, k ends at 4; 0.5 + 0.25 = 0.75, k ends at 3; no term: 0, k stays 1
Example({x: [2.0], n: [3], total: [14.0], k_final: [4]}, name="cube")
Example({x: [0.5], n: [2], total: [0.75], k_final: [3]}, name="half")
Example({x: [7.0], n: [0], total: [0.0], k_final: [1]}, name="empty")
