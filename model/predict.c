/* predict.c — the performance model: per nest, the time of each resource at the measured ceilings. */
#include "predict.h"

#include <math.h>
#include <string.h>

const char *kc_resource_name(enum kc_resource r)
{
	static const char *const names[KC_RES_N] = {"compute", "latency", "transcendental",
	                                            "memory",  "access",  "allocation"};
	return (unsigned)r < KC_RES_N ? names[r] : "?";
}

/* A count of f at its sizes; NULL is 0. 0, or -1 with *why. */
static int value(const struct kc_function *f, const struct kc_poly *p, double *out, const char **why)
{
	long long v = 0;
	if (p && kc_function_eval(f, p, &v, why) < 0)
		return -1;
	*out = (double)v;
	return 0;
}

static int is_double(enum kc_prec p)
{
	return p == KC_PREC_F64 || p == KC_PREC_F80;
}

/* The widest instruction set with a measured peak in that precision. */
static enum kc_isa widest(const struct kc_machine *m, int dbl)
{
	for (int isa = KC_ISA_N - 1; isa > KC_ISA_SCALAR; isa--)
		if (m->peak[dbl][isa][0].value > 0 || m->peak[dbl][isa][1].value > 0)
			return (enum kc_isa)isa;
	return KC_ISA_SCALAR;
}

/* The function's working set in bytes: its buffers' sizes (those it uses), or, when one has no known extent, the
 * largest of its minimum bytes and its nests' streaming bytes. */
static double working_set(const struct kc_function *f, const double *nest_bytes)
{
	double sum = 0;
	int known = 1;
	for (int b = 0; b < f->n_buffers && known; b++) {
		const struct kc_buffer *buf = &f->buffers[b];
		double extent;
		const char *why;
		if (buf->role == KC_ROLE_UNUSED)
			continue;
		if (!buf->extent || value(f, buf->extent, &extent, &why) < 0)
			known = 0;
		else
			sum += extent * buf->elem_size;
	}
	if (known && sum > 0)
		return sum;
	double w = 0;
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_poly *min = NULL;
	const char *why;
	if (kc_traffic_total(&a, &f->traffic[KC_MODEL_MIN], &min) == 0)
		value(f, min, &w, &why);
	kc_arena_release(&a);
	for (int i = 0; i < f->n_nests; i++)
		w = nest_bytes[i] > w ? nest_bytes[i] : w;
	return w;
}

/* Where a working set of w bytes lives across repeated calls: the smallest cache it fits within the share, whose
 * bandwidth was measured; else DRAM (or the largest measured level). */
static enum kc_level level_of(const struct kc_machine *m, double w)
{
	for (int l = KC_LEVEL_L1; l < KC_LEVEL_DRAM; l++)
		if (m->cache_bytes[l] > 0 && w <= KC_PREDICT_CACHE_SHARE * (double)m->cache_bytes[l] &&
		    m->bandwidth[l].value > 0)
			return (enum kc_level)l;
	for (int l = KC_LEVEL_DRAM; l >= KC_LEVEL_L1; l--)
		if (m->bandwidth[l].value > 0)
			return (enum kc_level)l;
	return KC_LEVEL_DRAM;
}

/* Seconds per byte at level l, from the bandwidth kernels (STREAM's counting): c[0] a byte read (load), c[1] a
 * byte written to a buffer the nest does not read (copy: one of each; its lines are read before they are
 * written), c[2] a byte written to a buffer it reads (update: two reads, one such write). A kernel's time is the
 * sum of its bytes' (the traffic of a level shares one path; triad, 2 reads and 1 write of the second kind,
 * checks it). 0 when the kernels were not measured. */
static int stream_costs(const struct kc_machine *m, enum kc_level l, double c[3])
{
	const double *g = m->stream_median[l];
	if (g[KC_STREAM_LOAD] <= 0 || g[KC_STREAM_COPY] <= 0 || g[KC_STREAM_UPDATE] <= 0)
		g = m->stream[l]; /* no medians (an older ceilings file, hypothetical budgets): the best batches */
	if (g[KC_STREAM_LOAD] <= 0 || g[KC_STREAM_COPY] <= 0 || g[KC_STREAM_UPDATE] <= 0)
		return 0;
	c[0] = 1 / (g[KC_STREAM_LOAD] * 1e9);
	c[1] = 2 / (g[KC_STREAM_COPY] * 1e9) - c[0];
	c[2] = 3 / (g[KC_STREAM_UPDATE] * 1e9) - 2 * c[0];
	c[1] = c[1] > 0 ? c[1] : 0, c[2] = c[2] > 0 ? c[2] : 0;
	return 1;
}

/* The data time of a nest's streaming bytes at level l: each byte at the cost of its kind where the kernels
 * were measured and the nest's writes are split, else all at the level's bandwidth. */
static int data_time(const struct kc_function *f, const struct kc_machine *m, const struct kc_nest *n, enum kc_level l,
                     double bytes, double *seconds, const char **why)
{
	double c[3], r, w, wo;
	const struct kc_traffic *t = &n->traffic[KC_MODEL_STREAMING];
	if (stream_costs(m, l, c) && t->read && t->write && t->write_only && value(f, t->read, &r, why) == 0 &&
	    value(f, t->write, &w, why) == 0 && value(f, t->write_only, &wo, why) == 0 && wo <= w) {
		*seconds = r * c[0] + wo * c[1] + (w - wo) * c[2];
		return 1;
	}
	double gbps = m->bandwidth_median[l] > 0 ? m->bandwidth_median[l] : m->bandwidth[l].value;
	*seconds = bytes / (gbps * 1e9);
	return 0;
}

static int nest_double(const struct kc_function *f, const struct kc_nest *n);

/* The time of what each iteration of nest n's outermost loop reads again (kc_nest.reread_bytes: matmul_ikj's
 * B under i), from where one iteration's data fits: those bytes plus a share of the rest of its streaming
 * bytes. One more pass over them an iteration, after the first, at that level's load cost; 0 where they fit
 * in L1 (the access resource has them there), or nothing is read again. *level: that level. */
static double reread_time(const struct kc_function *f, const struct kc_machine *m, const struct kc_nest *n,
                          double bytes, enum kc_level *level)
{
	double rb, trips, c[3];
	const char *why;
	if (!n->reread_bytes || !n->outer_trips || value(f, n->reread_bytes, &rb, &why) < 0 ||
	    value(f, n->outer_trips, &trips, &why) < 0 || trips <= 1 || rb <= 0)
		return 0;
	double one = rb + (bytes > rb ? (bytes - rb) / trips : 0);
	*level = level_of(m, one);
	if (*level == KC_LEVEL_L1 || !stream_costs(m, *level, c))
		return 0;
	return (trips - 1) * rb * c[0];
}

/* The time of nest n's column stores (kc_nest.column_stores): each misses every cache that cannot keep the
 * column (its column_lines, within KC_PREDICT_CACHE_SHARE), and its line comes from the first that can, or from
 * where the working set lives (data_level) when that is further — there the rest of the data pushes the
 * column's lines out as well: the transposes of 4096 x 4096 floats (a column of 4096 lines, which L3 could keep)
 * took 7.7-8.5 ns a store, the column walk's DRAM figure, against 6.2-6.4 at 1024 x 1024 (Zen 5). Each store at
 * the measured cost of such a store at that level (the median batch), divided among the line slots its lines
 * take. 0 where the column fits L1, or that cost was not measured. *from: the level. */
static double column_time(const struct kc_function *f, const struct kc_machine *m, const struct kc_nest *n,
                          enum kc_level data_level, enum kc_level *from)
{
	double stores;
	const char *why;
	if (!n->column_stores || n->column_lines <= 0 || value(f, n->column_stores, &stores, &why) < 0 || stores <= 0)
		return 0;
	int l = KC_LEVEL_L1;
	while (l < KC_LEVEL_DRAM && !(m->cache_bytes[l] > 0 && (double)n->column_lines * 64 <=
	                                                           KC_PREDICT_CACHE_SHARE * (double)m->cache_bytes[l]))
		l++;
	if (l == KC_LEVEL_L1)
		return 0;
	if (l < (int)data_level)
		l = (int)data_level;
	/* the ceiling's column takes one line slot; one that takes several misses in as many sets of L1, side by
	 * side (transposes of n x n floats, Zen 5: n = 512, 2 slots, 4.1-4.4 ns a store; n = 256, 4 slots,
	 * 2.7-4.7; against 6.5-8 at n = 1024, 1 slot) */
	double c = m->column_store_median[l] > 0 ? m->column_store_median[l] : m->column_store[l];
	*from = (enum kc_level)l;
	return c > 0 ? stores * c / (n->column_slots > 1 ? n->column_slots : 1) : 0;
}

/* How a vectorized loop of trip count t (0: not known, or fewer than a vector) covers its elements, `per` to a
 * vector: full vectors, then at most one half-width vector and single elements for the remainder (the epilogue gcc and
 * clang emit without masking). *accesses: accesses an element, relative to a full vector for each (1 when t is a
 * multiple of per or not known); *crossing: accesses an element that span two 64-byte lines when the first element is
 * off a line, for vectors of vb bytes (every full one of 64 bytes, every other one of 32); *half_crossing: the same
 * where the first element is off by a multiple of 32 bytes (every full one of 64 bytes, none of 32). */
static void vector_cover(double t, double per, double vb, double *accesses, double *crossing, double *half_crossing)
{
	double full_cross = vb >= 64 ? 1 : vb / 64, half_cross = vb / 2 >= 64 ? 1 : vb / 128;
	double full_half = vb >= 64 ? 1 : 0; /* off by 32 bytes: only a 64-byte vector spans two lines */
	if (!(t >= per) || per <= 1) {       /* a loop shorter than a vector: the vectors run along another one */
		*accesses = 1, *crossing = full_cross / (per > 1 ? per : 1),
		*half_crossing = full_half / (per > 1 ? per : 1);
		return;
	}
	double full = floor(t / per), rest = t - full * per;
	double half = per >= 4 && rest >= per / 2 ? 1 : 0, single = rest - half * per / 2;
	*accesses = (full + half + single) * per / t;
	*crossing = (full * full_cross + half * half_cross) / t;
	*half_crossing = full * full_half / t;
}

/* The time of every access of nest n — the naive model's bytes: each load and store the source names, none kept
 * in a register — at L1's costs (stream_costs), the writes split as the streaming model splits them: what the
 * load and store ports allow with all the data at hand. The bandwidth kernels move a vector (the widest the CPU
 * has) an access. In a vectorized loop a unit-stride access moves a vector, its remainder (vector_cover) a
 * smaller one or an element at the same cost, and one whose first element is off a 64-byte line
 * (kc_nest.misaligned) reaches a second line for each vector that spans two; an access of a loop that was not
 * vectorized, and a strided one of a loop that was (a gather or a scatter: element by element), moves one element
 * (elem_size bytes) at the cost of a vector; a strided store, at the cost of L1's column walk (kc_machine's
 * column_store) where it was measured. 0 where L1's kernels were not measured, and for a call (its callee's
 * accesses are not composed). */
static double access_time(const struct kc_function *f, const struct kc_machine *m, const struct kc_nest *n, int scalar,
                          double elem_size)
{
	double c[3], r, w, sw, swo, sr = 0, sx = 0, mr = 0, mx = 0, hr = 0, hx = 0, t = 0, cx = 0;
	const struct kc_traffic *tr = &n->traffic[KC_MODEL_NAIVE], *s = &n->traffic[KC_MODEL_STREAMING];
	const char *why;
	if (n->callee || !stream_costs(m, KC_LEVEL_L1, c) || !tr->read || !tr->write ||
	    value(f, tr->read, &r, &why) < 0 || value(f, tr->write, &w, &why) < 0)
		return 0;
	double only = 0; /* the share of the writes that go to buffers the nest does not read */
	if (s->write && s->write_only && value(f, s->write, &sw, &why) == 0 &&
	    value(f, s->write_only, &swo, &why) == 0 && sw > 0)
		only = swo / sw;
	if (n->strided.write && value(f, n->strided.write, &cx, &why) < 0)
		cx = 0; /* the strided stores, which a column walk prices */
	if (scalar)
		sr = r, sx = w;
	else {
		if (n->strided.read && n->strided.write &&
		    (value(f, n->strided.read, &sr, &why) < 0 || value(f, n->strided.write, &sx, &why) < 0))
			sr = sx = 0;
		if (n->misaligned.read && n->misaligned.write &&
		    (value(f, n->misaligned.read, &mr, &why) < 0 || value(f, n->misaligned.write, &mx, &why) < 0))
			mr = mx = 0;
		if (n->half_line.read && n->half_line.write &&
		    (value(f, n->half_line.read, &hr, &why) < 0 || value(f, n->half_line.write, &hx, &why) < 0))
			hr = hx = 0;
		if (n->inner_trips && value(f, n->inner_trips, &t, &why) < 0)
			t = 0; /* it varies with an outer loop's variable (a triangle), or has no value */
	}
	static const double vector_bytes[KC_ISA_N] = {16, 16, 32, 64}; /* the kernels' baseline is SSE2 */
	double vb = vector_bytes[widest(m, 0)], per = vb / elem_size, cw = only * c[1] + (1 - only) * c[2];
	double accesses, crossing, half_crossing;
	vector_cover(t, per, vb, &accesses, &crossing, &half_crossing);
	/* a strided store: what L1's column walk measured for one, where it was measured, less what the sum below
	 * charges for a unit-stride load (the walk loads what it stores: a transpose's), at a vector's cost where
	 * the loop was not vectorized and at an element's where it was (the loads move vectors, the stores are
	 * scattered: gcc's AVX-512 scatter, 0.26 ns a store like the scalar walk, Zen 5), and nothing where that
	 * load alone costs as much; else, as every other access element by element, a vector store's cost */
	double col = m->column_store_median[KC_LEVEL_L1] > 0 ? m->column_store_median[KC_LEVEL_L1]
	                                                     : m->column_store[KC_LEVEL_L1];
	double walk_load = (scalar ? vb : elem_size * accesses) * c[0];
	if (!(col > 0) || cx > sx)
		cx = 0;
	return accesses * ((r - sr) * c[0] + (w - sx) * cw) + crossing * vb / elem_size * (mr * c[0] + mx * cw) +
	       half_crossing * vb / elem_size * (hr * c[0] + hx * cw) + per * (sr * c[0] + (sx - cx) * cw) +
	       cx / elem_size * (col > walk_load ? col - walk_load : 0);
}

/* A reduction into a scalar: a loop nest that writes no buffer (what it computes goes into a scalar: returned,
 * or left for a later pass), or whose dataflow pass leaves a scalar for later passes. */
static int is_reduction(const struct kc_function *f, const struct kc_nest *n)
{
	const struct kc_dataflow *df = &f->dataflow;
	if (!n->callee && n->trips && n->n_writes == 0)
		return 1;
	if (df->in_loop)
		return 0;
	for (int i = 0; i < df->n_passes; i++)
		if (df->passes[i].begin.line == n->begin.line && df->passes[i].n_scalars_out > 0)
			return 1;
	return 0;
}

/* The vectorized loop of nest n that encloses its accumulating loop (chain_line), or 0: its lanes then run
 * that many chains side by side (matmul's j loop vectorized around the accumulation over p). Not where the
 * chain's loop reads what the nest writes at elements that move with it (kc_nest.chain_carried: trsv's x[j],
 * written by the rows before): the chains cannot run side by side whatever a remark names (gcc names the row
 * loop of trsv, whose fold-left reduction keeps the adds in order); y[i] += s or C[i][j] = beta*C[i][j] + s
 * read what they write at elements that stay. */
static int vectorized_around_chain(const struct kc_vectorized *v, const struct kc_nest *n)
{
	if (!v || !v->known || !n->chain_line)
		return 0;
	if (n->chain_carried)
		return 0;
	for (int i = 0; i < v->n_lines; i++)
		if (v->lines[i] >= (int)n->begin.line && v->lines[i] < (int)n->chain_line)
			return 1;
	return 0;
}

static int vectorized(const struct kc_vectorized *v, const struct kc_nest *n, int reduction)
{
	if (!v || !v->known)
		return reduction ? 0 : -1;
	for (int i = 0; i < v->n_lines; i++)
		if (v->lines[i] >= (int)n->begin.line && v->lines[i] <= (int)n->end.line)
			return 1;
	return 0;
}

/* The latencies a prediction waits on, [dbl]: the median runs beside the kernels' timings where this run sampled
 * them (kc_machine.latency_beside_runs), else the ceilings' best runs. */
static double lat_add(const struct kc_machine *m, int d)
{
	return m->latency_add_median[d] > 0 ? m->latency_add_median[d] : m->latency_add[d];
}
static double lat_max(const struct kc_machine *m, int d)
{
	return m->latency_max_median[d] > 0 ? m->latency_max_median[d] : m->latency_max[d];
}

/* How much faster than one add after another the `dependent` adds of nest n run when its chain is cut into runs
 * of its chain loop (n->chain_runs: matvec's rows): the out-of-order window starts a run's adds while the one
 * before drains, which hides K adds of each run, K from the row-latency ceiling (rows of KC_CHAIN_RUN adds at
 * latency_add_rows an add: KC_CHAIN_RUN * (latency_add / latency_add_rows - 1)). A run of L adds then costs
 * L / (1 + K / L) adds' latency. 1 where the runs or the ceiling are not known. */
static double chain_overlap(const struct kc_function *f, const struct kc_machine *m, const struct kc_nest *n,
                            double dependent)
{
	int dbl = nest_double(f, n);
	double runs;
	const char *why;
	if (dependent <= 0 || !n->chain_runs || value(f, n->chain_runs, &runs, &why) < 0 || runs < 1 ||
	    m->latency_add_rows[dbl] <= 0 || m->latency_add[dbl] <= m->latency_add_rows[dbl])
		return 1;
	double k = KC_CHAIN_RUN * (m->latency_add[dbl] / m->latency_add_rows[dbl] - 1), run = dependent / runs;
	return 1 + k / run;
}

/* The compute time of nest n in its precisions; *bound names the roof of the precision that takes longest. */
static int compute_time(struct kc_arena *a, const struct kc_function *f, const struct kc_machine *m,
                        const struct kc_nest *n, int vec, double *seconds, double *flops, const char **bound,
                        const char **why)
{
	*seconds = *flops = 0;
	double longest = -1;
	int dense = n->callee && !strncmp(n->callee, "cblas_", 6);
	for (int p = 0; p < KC_PREC_N; p++) {
		double ops[KC_OP_N];
		for (int op = 0; op < KC_OP_N; op++)
			if (value(f, n->cost.ops[op][p], &ops[op], why) < 0)
				return -1;
		double simple = ops[KC_OP_ADD] + ops[KC_OP_SUB] + ops[KC_OP_MUL], fma = ops[KC_OP_FMA];
		double fl = simple + ops[KC_OP_DIV] + 2 * fma;
		if (fl <= 0)
			continue;
		*flops += fl;
		int d = is_double((enum kc_prec)p);
		double t;
		const char *name;
		if (dense) {
			double g =
			    m->dense_run[d].value > 0 ? m->dense_run[d].value : (d ? m->dense_f64 : m->dense_f32).value;
			if (g <= 0) {
				*why = "the dense (GEMM) roof was not measured";
				return -1;
			}
			t = fl / (g * 1e9);
			name = m->dense_run[d].value > 0 ? "OpenBLAS GEMM (as run here)" : "OpenBLAS GEMM (dense roof)";
		} else {
			enum kc_isa isa = vec != 0 ? widest(m, d) : KC_ISA_SCALAR;
			double am = m->peak[d][isa][0].value, fm = m->peak[d][isa][1].value;
			double roof = (d ? m->flops_f64 : m->flops_f32).value;
			am = am > 0 ? am : roof, fm = fm > 0 ? fm : roof;
			if (am <= 0 || fm <= 0) {
				*why = "the compute roofs were not measured";
				return -1;
			}
			double t_am = (simple + KC_PREDICT_DIV_OPS * ops[KC_OP_DIV]) / (am * 1e9),
			       t_fma = 2 * fma / (fm * 1e9);
			t = t_am + t_fma;
			name = kc_arena_printf(a, "%s %s %s peak%s", kc_isa_name(isa), kc_prec_name((enum kc_prec)p),
			                       t_fma > t_am ? "FMA" : "add/multiply",
			                       vec < 0    ? " (vectorization not known)"
			                       : vec == 0 ? " (not vectorized)"
			                                  : "");
		}
		*seconds += t;
		if (t > longest)
			longest = t, *bound = name;
	}
	return 0;
}

/* The precision most of nest n's operations are in (KC_PREC_F32 when it has none). */
static enum kc_prec nest_prec(const struct kc_function *f, const struct kc_nest *n)
{
	double best = 0;
	enum kc_prec most = KC_PREC_F32;
	for (int p = 0; p < KC_PREC_N; p++) {
		double sum = 0, v;
		const char *why;
		for (int op = 0; op < KC_OP_N; op++)
			if (value(f, n->cost.ops[op][p], &v, &why) == 0)
				sum += v;
		if (sum > best)
			best = sum, most = (enum kc_prec)p;
	}
	return most;
}

static int nest_double(const struct kc_function *f, const struct kc_nest *n)
{
	return is_double(nest_prec(f, n));
}

/* Whether all of nest n's floating-point operations are half precision (and it has some): not a float
 * accumulator of _Float16 products. */
static int nest_all_half(const struct kc_function *f, const struct kc_nest *n)
{
	int half = 0;
	for (int p = 0; p < KC_PREC_N; p++)
		for (int op = 0; op < KC_OP_N; op++) {
			double v;
			const char *why;
			if (n->cost.ops[op][p] && value(f, n->cost.ops[op][p], &v, &why) == 0 && v > 0) {
				if (p != KC_PREC_F16)
					return 0;
				half = 1;
			}
		}
	return half;
}

/* The calls followed into their callees' predictions: how deep now, and how many more (a file of functions that
 * each call ten others would otherwise make one prediction cost 10^8). */
struct calls {
	int depth, left;
};

static int predict_function(struct kc_arena *a, const struct kc_function *f, const struct kc_machine *m,
                            const struct kc_vectorized *v, struct kc_prediction *out, struct calls *calls);

/* A call to an analyzed function: the callee's own prediction (its loops' loads and stores, chains and
 * vectorization are its own, which the call's composed counts cannot tell), scaled by the call's share of the
 * callee's work: the call's naive bytes (the callee's accesses in the caller's sizes, over the loops around the
 * call) over the callee's own at its sizes — 1 when the call passes the callee its own sizes. 0 when there is
 * no such prediction (the callee's fails, or it accesses nothing), and the nest is predicted from its counts. */
static int call_prediction(struct kc_arena *a, const struct kc_function *f, const struct kc_machine *m,
                           const struct kc_vectorized *v, const struct kc_nest *n, double bytes,
                           struct kc_nest_prediction *np, struct calls *calls)
{
	const struct kc_function *g = n->callee_fn;
	if (!g || g == f || calls->depth >= KC_PREDICT_MAX_CALL_DEPTH || calls->left <= 0)
		return 0;
	calls->left--;
	int same_file = g->loc.file && f->loc.file && !strcmp(g->loc.file, f->loc.file);
	struct kc_prediction gp;
	calls->depth++;
	int failed = predict_function(a, g, m, same_file ? v : NULL, &gp, calls) < 0 || !gp.ok;
	calls->depth--;
	if (failed)
		return 0;
	struct kc_arena scratch = KC_ARENA_INIT;
	struct kc_poly *t;
	double mine = 0, theirs = 0;
	const char *why;
	int ok = kc_traffic_total(&scratch, &n->traffic[KC_MODEL_NAIVE], &t) == 0 && value(f, t, &mine, &why) == 0 &&
	         kc_traffic_total(&scratch, &g->traffic[KC_MODEL_NAIVE], &t) == 0 && value(g, t, &theirs, &why) == 0 &&
	         theirs > 0 && mine > 0;
	kc_arena_release(&scratch);
	if (!ok)
		return 0;
	double k = mine / theirs;
	memset(np, 0, sizeof *np);
	for (int i = 0; i < gp.n_nests; i++) {
		for (int r = 0; r < KC_RES_N; r++)
			np->seconds[r] += gp.nests[i].seconds[r] * k;
		np->flops += gp.nests[i].flops * k;
	}
	np->seconds[KC_RES_ALLOCATION] = gp.seconds_allocation * k;
	np->seconds_max = gp.seconds * k;
	np->seconds_sum = gp.seconds_no_overlap * k;
	np->resource = gp.resource;
	np->bound = gp.bound;
	np->level = gp.level;
	np->vectorized = 1;
	np->working_set = gp.n_nests ? gp.nests[0].working_set : 0;
	np->bytes = bytes;
	np->ok = 1;
	return 1;
}

static void predict_one(struct kc_arena *a, const struct kc_function *f, const struct kc_machine *m,
                        const struct kc_vectorized *v, const struct kc_nest *n, double w, double bytes,
                        struct kc_nest_prediction *np, struct calls *calls)
{
	const char *why = NULL, *names[KC_RES_N] = {NULL};
	if (call_prediction(a, f, m, v, n, bytes, np, calls))
		return;
	memset(np, 0, sizeof *np);
	int reduction = is_reduction(f, n);
	np->vectorized = n->callee ? 1 : vectorized(v, n, reduction);
	np->working_set = w;
	np->bytes = bytes;
	if (compute_time(a, f, m, n, np->vectorized, &np->seconds[KC_RES_COMPUTE], &np->flops, &names[KC_RES_COMPUTE],
	                 &why) < 0) {
		np->why = why;
		return;
	}
	/* the updates of an accumulator wait for each other unless the compiler reordered the sum: a loop that
	 * accumulates into a scalar (the count's chain), or a nest that writes nothing (its result stays in one) */
	double dependent = 0;
	int in_order = np->vectorized != 1 || !v || !v->reassociates;
	if (in_order && n->chain && !n->callee && value(f, n->chain, &dependent, &why) < 0)
		dependent = 0; /* a call's chains: how the callee's loops were vectorized is not known here */
	if (in_order && dependent <= 0 && reduction && n->trips && value(f, n->trips, &dependent, &why) < 0)
		dependent = 0;
	double rows = chain_overlap(f, m, n, dependent), in_turn = 0;
	/* a chain of multiply-adds in a loop vectorized across an outer loop is one of vector FMAs, where the compiler
	 * contracts them (conv2d in the harness: 115.6 M updates in 13.7-15.4 ms, an FMA's 0.96 ns over 8 lanes; at
	 * an add's 0.48 it was predicted 6.4); a loop vectorized in order multiplies apart from its chain of adds */
	int fma_chain = 0, around = dependent > 0 && vectorized_around_chain(v, n);
	if (around) { /* 256-bit vectors: what gcc and clang prefer by default */
		dependent /= nest_double(f, n) ? 4 : 8;
		fma_chain = n->chain_madd && v->contracts && m->latency_fma[nest_double(f, n)] > 0;
	}
	/* a reduction with no arithmetic, only comparisons (m = fmaxf(m, x[i])), waits for a max at each element */
	double cmps = 0;
	int max_chain = dependent > 0 && reduction && np->flops <= 0 && n->cost.cmp &&
	                value(f, n->cost.cmp, &cmps, &why) == 0 && cmps > 0 && lat_max(m, nest_double(f, n)) > 0;
	/* a _Float16 accumulator (a nest whose operations are all half precision) waits for a half-precision update:
	 * on a CPU without half-precision arithmetic, conversions to float and back around each add or contracted
	 * multiply-add (matmul_tanh_f16's dot products: about 2.2 ns an update against a float add's 0.48, Zen 5) —
	 * a multiply-add where the compiler contracts it and the chain's loop was not vectorized in order (as for
	 * float chains: a loop vectorized in order keeps its adds apart from the multiplies) */
	int half = dependent > 0 && !max_chain && nest_all_half(f, n) && m->latency_half_add > 0;
	int half_madd = half && n->chain_madd && (!v || v->contracts) && (np->vectorized != 1 || around);
	if (dependent > 0) {
		double lat = max_chain   ? lat_max(m, nest_double(f, n))
		             : half      ? (half_madd ? m->latency_half_madd : m->latency_half_add)
		             : fma_chain ? m->latency_fma[nest_double(f, n)]
		                         : lat_add(m, nest_double(f, n));
		if (lat <= 0) {
			np->why = "the add latency was not measured";
			return;
		}
		np->seconds[KC_RES_LATENCY] = dependent * lat / (max_chain ? 1 : rows);
		in_turn = dependent * lat;
		names[KC_RES_LATENCY] = max_chain           ? "max latency chain (a reduction in order)"
		                        : half && reduction ? "half-precision latency chain (a reduction in order)"
		                        : half      ? "half-precision latency chain (an accumulator updated in order)"
		                        : fma_chain ? "FMA latency chain (an accumulator updated in order)"
		                        : reduction ? "add latency chain (a reduction in order)"
		                                    : "add latency chain (an accumulator updated in order)";
	}
	double longest = 0;
	for (const struct kc_named_count *t = n->cost.transcendentals; t; t = t->next) {
		double n_calls;
		if (value(f, t->count, &n_calls, &why) < 0) {
			np->why = why;
			return;
		}
		const struct kc_libm_cost *c = kc_machine_libm(m, t->name);
		if (n_calls > 0 && (!c || c->seconds <= 0)) {
			np->why = kc_arena_printf(a, "no per-call time of %s was measured", t->name);
			return;
		}
		double s = n_calls > 0 ? n_calls * (c->median > 0 ? c->median : c->seconds) : 0;
		np->seconds[KC_RES_TRANSCENDENTAL] += s;
		if (s > longest)
			longest = s,
			names[KC_RES_TRANSCENDENTAL] = kc_arena_printf(a, "%s throughput (scalar libm)", t->name);
	}
	/* a nest that calls libm and waits on a chain: the calls fill the out-of-order window (a call of tanhf is
	 * some 50 instructions), so the chain's adds run between them, one after another, not beside them nor
	 * overlapping from one run to the next — matmul_tanh's 16-add dot product before each tanhf, softmax's sum
	 * of expf's */
	if (np->seconds[KC_RES_TRANSCENDENTAL] > 0 && in_turn > 0) {
		np->seconds[KC_RES_TRANSCENDENTAL] += in_turn;
		np->seconds[KC_RES_LATENCY] = 0; /* counted once, with the calls */
		names[KC_RES_TRANSCENDENTAL] =
		    kc_arena_printf(a, "%s and the %s between the calls", names[KC_RES_TRANSCENDENTAL],
		                    max_chain   ? "max chain"
		                    : half      ? "half-precision chain"
		                    : fma_chain ? "FMA chain"
		                                : "add chain");
	}
	np->level = level_of(m, w);
	double bw = m->bandwidth[np->level].value;
	if (np->bytes > 0 && bw <= 0) {
		np->why = "no bandwidth was measured";
		return;
	}
	np->seconds[KC_RES_DATA] = 0;
	if (np->bytes > 0)
		data_time(f, m, n, np->level, np->bytes, &np->seconds[KC_RES_DATA], &why);
	names[KC_RES_DATA] = kc_arena_printf(a, "%s bandwidth", kc_level_name(np->level));
	enum kc_level again = KC_LEVEL_DRAM;
	double reread = reread_time(f, m, n, np->bytes, &again);
	if (reread > 0) {
		np->seconds[KC_RES_DATA] += reread;
		if (reread > np->seconds[KC_RES_DATA] / 2)
			names[KC_RES_DATA] = kc_arena_printf(a, "%s bandwidth (data read again each outer iteration)",
			                                     kc_level_name(again));
	}
	enum kc_level from = KC_LEVEL_DRAM;
	double column = column_time(f, m, n, np->level, &from);
	if (column > np->seconds[KC_RES_DATA]) {
		np->seconds[KC_RES_DATA] = column;
		names[KC_RES_DATA] =
		    kc_arena_printf(a, "%s line a store (a column of pitch %lld B, whose lines conflict in the caches)",
		                    kc_level_name(from), n->column_pitch);
	}
	np->seconds[KC_RES_ACCESS] = access_time(f, m, n, np->vectorized == 0, nest_double(f, n) ? 8 : 4);
	names[KC_RES_ACCESS] = "L1 loads and stores (every access)";
	/* from DRAM, the loads and stores beyond those of a stream of the same bytes (which the bandwidth kernels
	 * time with the transfers) add to the transfers: a 3-point stencil, whose bytes are a copy's, took 4.0 ms
	 * where the copy took 3.2 and its loads and stores 1.0 ms more than the copy's in L1 (Zen 5); in L2 and L3
	 * they overlap */
	double streamed = 0;
	if (np->level == KC_LEVEL_DRAM && np->vectorized != 0 && np->seconds[KC_RES_DATA] > 0 &&
	    np->seconds[KC_RES_ACCESS] > 0 && data_time(f, m, n, KC_LEVEL_L1, np->bytes, &streamed, &why) &&
	    np->seconds[KC_RES_ACCESS] > streamed)
		np->seconds[KC_RES_DATA] += np->seconds[KC_RES_ACCESS] - streamed;
	np->resource = KC_RES_DATA;
	for (int r = 0; r < KC_RES_N; r++) {
		np->seconds_sum += np->seconds[r];
		if (np->seconds[r] > np->seconds[np->resource])
			np->resource = (enum kc_resource)r;
	}
	np->seconds_max = np->seconds[np->resource];
	np->bound = names[np->resource] ? names[np->resource] : names[KC_RES_DATA];
	np->ok = 1;
}

/* The page faults of f's own allocations: each buffer it allocates (malloc, calloc, aligned_alloc) of
 * KC_PREDICT_FRESH_BYTES or more comes in page by page on every call, at the measured cost of a fresh page. */
static double allocation_time(const struct kc_function *f, const struct kc_machine *m)
{
	double pages = 0, e;
	const char *why;
	for (int b = 0; b < f->n_buffers && m->fresh_page.value > 0; b++) {
		const struct kc_buffer *buf = &f->buffers[b];
		if (!buf->is_heap || buf->role == KC_ROLE_UNUSED || !buf->extent || value(f, buf->extent, &e, &why) < 0)
			continue;
		double bytes = e * buf->elem_size;
		if (bytes >= KC_PREDICT_FRESH_BYTES)
			pages += ceil(bytes / 4096);
	}
	return pages * m->fresh_page.value;
}

/* The passes of nest i when they run one after another inside it (kc_pass.phase: the function's body is one
 * loop holding several, as softmax's max, exp and scale loops inside its row loop), or NULL. */
static const struct kc_dataflow *phases_of(const struct kc_function *f, int i)
{
	const struct kc_dataflow *df = &f->dataflow;
	if (!df->in_loop || df->n_passes < 2 || f->n_nests != 1)
		return NULL;
	for (int k = 0; k < df->n_passes; k++)
		if (!df->passes[k].phase || df->passes[k].begin.line < f->nests[i].begin.line ||
		    df->passes[k].end.line > f->nests[i].end.line)
			return NULL;
	return df;
}

/* Nest i: one prediction, or, when its passes run one after another inside it, the sum of theirs — a loop's
 * libm calls do not overlap the next loop's add chain (each pass's resources overlap among themselves). The
 * bound is that of the longest pass; seconds[] sum the passes'. */
static void predict_nest(struct kc_arena *a, const struct kc_function *f, const struct kc_machine *m,
                         const struct kc_vectorized *v, int i, double w, double bytes, struct kc_nest_prediction *np,
                         struct calls *calls)
{
	const struct kc_dataflow *df = phases_of(f, i);
	if (!df) {
		predict_one(a, f, m, v, &f->nests[i], w, bytes, np, calls);
		return;
	}
	memset(np, 0, sizeof *np);
	double longest = -1;
	for (int k = 0; k < df->n_passes; k++) {
		const struct kc_nest *ph = df->passes[k].phase;
		struct kc_poly *t = NULL;
		struct kc_arena scratch = KC_ARENA_INIT;
		double b = 0;
		const char *why = NULL;
		int ok =
		    kc_traffic_total(&scratch, &ph->traffic[KC_MODEL_STREAMING], &t) == 0 && value(f, t, &b, &why) == 0;
		kc_arena_release(&scratch);
		struct kc_nest_prediction q;
		if (!ok) {
			memset(np, 0, sizeof *np);
			np->why = "a pass's bytes have no value at the benchmark sizes";
			return;
		}
		predict_one(a, f, m, v, ph, w, b, &q, calls);
		if (!q.ok) {
			*np = q;
			return;
		}
		for (int r = 0; r < KC_RES_N; r++)
			np->seconds[r] += q.seconds[r];
		np->seconds_max += q.seconds_max;
		np->seconds_sum += q.seconds_sum;
		np->flops += q.flops;
		/* vectorized when a pass was; else not known when a pass's is not known; else not */
		if (k == 0 || q.vectorized == 1 || (q.vectorized < 0 && np->vectorized == 0))
			np->vectorized = q.vectorized;
		np->level = q.level;
		if (q.seconds_max > longest)
			longest = q.seconds_max, np->resource = q.resource, np->bound = q.bound;
	}
	np->working_set = w;
	np->bytes = bytes;
	np->ok = 1;
}

int kc_predict(struct kc_arena *a, const struct kc_function *f, const struct kc_machine *m,
               const struct kc_vectorized *v, struct kc_prediction *out)
{
	struct calls calls = {0, KC_PREDICT_MAX_CALLS};
	return predict_function(a, f, m, v, out, &calls);
}

static int predict_function(struct kc_arena *a, const struct kc_function *f, const struct kc_machine *m,
                            const struct kc_vectorized *v, struct kc_prediction *out, struct calls *calls)
{
	memset(out, 0, sizeof *out);
	if (!m) {
		out->why = "the machine was not measured";
		return -1;
	}
	if (f->n_nests <= 0) {
		out->why = "no loop nest or call to predict";
		return -1;
	}
	if (f->counted_once.line) {
		out->why =
		    kc_arena_printf(a,
		                    "the trip count of the loop at line %u%s%s is not known (its body is counted "
		                    "once, see its warning): no time is predicted from one iteration's counts",
		                    f->counted_once.line, f->counted_once_in ? " of " : "",
		                    f->counted_once_in ? f->counted_once_in : "");
		return -1;
	}
	out->n_nests = f->n_nests;
	out->nests = KC_NEW_N(a, struct kc_nest_prediction, f->n_nests);
	double *nest_bytes = KC_NEW_N(a, double, f->n_nests);
	struct kc_arena scratch = KC_ARENA_INIT;
	for (int i = 0; i < f->n_nests; i++) {
		struct kc_poly *t = NULL;
		const char *why;
		if (kc_traffic_total(&scratch, &f->nests[i].traffic[KC_MODEL_STREAMING], &t) < 0 ||
		    value(f, t, &nest_bytes[i], &why) < 0)
			nest_bytes[i] = -1;
	}
	kc_arena_release(&scratch);
	double w = working_set(f, nest_bytes);
	out->ok = 1;
	double longest = -1;
	for (int i = 0; i < f->n_nests; i++) {
		struct kc_nest_prediction *np = &out->nests[i];
		if (nest_bytes[i] < 0) {
			memset(np, 0, sizeof *np);
			np->why = "its bytes have no value at the benchmark sizes";
		} else {
			predict_nest(a, f, m, v, i, w, nest_bytes[i], np, calls);
		}
		if (!np->ok) {
			if (out->ok)
				out->why = np->why;
			out->ok = 0;
			continue;
		}
		out->seconds += np->seconds_max;
		out->seconds_no_overlap += np->seconds_sum;
		if (np->seconds_max > longest) {
			longest = np->seconds_max;
			out->resource = np->resource;
			out->bound = np->bound;
			out->level = np->level;
		}
	}
	out->seconds_allocation = allocation_time(f, m);
	out->seconds += out->seconds_allocation;
	out->seconds_no_overlap += out->seconds_allocation;
	return out->ok ? 0 : -1;
}
