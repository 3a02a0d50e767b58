/* analysis.c — names and totals of the analysis model. */
#include "analysis.h"

#include <stddef.h>

const char *kc_prec_name(enum kc_prec p)
{
	static const char *const names[KC_PREC_N] = {"_Float16", "float", "double", "long double"};
	return (unsigned)p < KC_PREC_N ? names[p] : "?";
}

const char *kc_op_name(enum kc_op op)
{
	static const char *const names[KC_OP_N] = {"add", "sub", "mul", "div", "fma"};
	return (unsigned)op < KC_OP_N ? names[op] : "?";
}

const char *kc_model_name(enum kc_model m)
{
	static const char *const names[KC_MODEL_N] = {"min", "streaming", "naive"};
	return (unsigned)m < KC_MODEL_N ? names[m] : "?";
}

const char *kc_role_name(enum kc_role r)
{
	static const char *const names[] = {"input", "output", "inout", "intermediate", "unused"};
	return (unsigned)r <= KC_ROLE_UNUSED ? names[r] : "?";
}

const char *kc_extent_origin_name(enum kc_extent_origin o)
{
	return o == KC_EXTENT_DECLARED   ? "declared"
	       : o == KC_EXTENT_ACCESSES ? "accesses"
	       : o == KC_EXTENT_UNUSED   ? "unused"
	                                 : NULL;
}

const char *kc_fusion_kind_name(enum kc_fusion_kind k)
{
	static const char *const names[] = {"elementwise", "epilogue", "independent", "reduction",
	                                    "shifted",     "space",    "unknown"};
	return (unsigned)k <= KC_FUSE_UNKNOWN ? names[k] : "?";
}

/* *acc += weight * p, treating a NULL p as zero. Only an fma weighs 2: the rest needs no scaled copy. */
static int accumulate(struct kc_arena *a, struct kc_poly **acc, const struct kc_poly *p, long long weight)
{
	struct kc_poly *scaled;
	if (!p)
		return 0;
	if (weight == 1)
		return kc_poly_add(a, *acc, p, acc);
	if (kc_poly_scale(a, p, kc_rat_int(weight), &scaled) < 0)
		return -1;
	return kc_poly_add(a, *acc, scaled, acc);
}

/* FLOPs of the ops selected by (op, prec); -1 selects all. fma counts twice. */
static int flops_where(struct kc_arena *a, const struct kc_cost *c, int op, int prec, struct kc_poly **out)
{
	struct kc_poly *sum = kc_poly_zero(a);
	for (int o = 0; o < KC_OP_N; o++)
		for (int p = 0; p < KC_PREC_N; p++)
			if ((op < 0 || op == o) && (prec < 0 || prec == p) &&
			    accumulate(a, &sum, c->ops[o][p], o == KC_OP_FMA ? 2 : 1) < 0)
				return -1;
	*out = sum;
	return 0;
}

int kc_cost_flops(struct kc_arena *a, const struct kc_cost *c, struct kc_poly **out)
{
	return flops_where(a, c, -1, -1, out);
}

int kc_cost_flops_prec(struct kc_arena *a, const struct kc_cost *c, enum kc_prec p, struct kc_poly **out)
{
	return flops_where(a, c, -1, (int)p, out);
}

int kc_cost_flops_op(struct kc_arena *a, const struct kc_cost *c, enum kc_op op, struct kc_poly **out)
{
	return flops_where(a, c, (int)op, -1, out);
}

int kc_cost_transcendentals(struct kc_arena *a, const struct kc_cost *c, struct kc_poly **out)
{
	struct kc_poly *sum = kc_poly_zero(a);
	for (const struct kc_named_count *t = c->transcendentals; t; t = t->next)
		if (accumulate(a, &sum, t->count, 1) < 0)
			return -1;
	*out = sum;
	return 0;
}

int kc_traffic_total(struct kc_arena *a, const struct kc_traffic *t, struct kc_poly **out)
{
	struct kc_poly *sum = kc_poly_zero(a);
	if (accumulate(a, &sum, t->read, 1) < 0 || accumulate(a, &sum, t->write, 1) < 0)
		return -1;
	*out = sum;
	return 0;
}

int kc_function_eval(const struct kc_function *f, const struct kc_poly *p, long long *out, const char **why)
{
	long long values[KC_POLY_MAX_SYMS] = {0};
	for (int s = 0; s < f->syms.n; s++) {
		if (!kc_poly_has_sym(p, s))
			continue;
		if (!f->syms.syms[s].has_value) {
			*why = "a size has no benchmark value";
			return -1;
		}
		values[s] = f->syms.syms[s].value;
	}
	if (kc_poly_eval_int(p, values, out) < 0) {
		*why = "the value overflows 64 bits";
		return -1;
	}
	return 0;
}

void kc_function_format(const struct kc_function *f, const struct kc_poly *p, struct kc_buf *b)
{
	kc_poly_format(p, f->syms.names, b);
}

int kc_buffer_is_global(const struct kc_function *f, int b)
{
	for (int i = 0; i < f->n_globals; i++)
		if (f->globals[i] == b)
			return 1;
	return 0;
}

int kc_function_ops_free(const struct kc_function *f)
{
	if (!f->exact_ops || f->ops_somewhere || (f->cost.cmp && !kc_poly_is_zero(f->cost.cmp)) ||
	    f->cost.transcendentals)
		return 0;
	for (int o = 0; o < KC_OP_N; o++)
		for (int p = 0; p < KC_PREC_N; p++)
			if (f->cost.ops[o][p] && !kc_poly_is_zero(f->cost.ops[o][p]))
				return 0;
	return 1;
}
