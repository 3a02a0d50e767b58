/* affine.h — private to the front end: the variable table of the function being lowered, and integer
 * expressions, loop headers and guards as polynomials in its size symbols and loop variables. */
#ifndef KC_AFFINE_H
#define KC_AFFINE_H

#include "clang_util.h"
#include "fe_int.h"

/* The variable declared by decl, entered (or re-entered, cleared) with the given kind; NULL if the table is
 * full. Its sym, buffer and scalar are -1. The pointer stays valid while the function is lowered. */
struct var *kc_affine_add_var(struct fctx *fc, CXCursor decl, enum var_kind kind);
/* The variable an expression names (through parentheses and casts), or NULL. */
struct var *kc_affine_var_of(struct fctx *fc, CXCursor c);

/* 0 when c cannot be a constant (it reads an array or a variable of the function): a cheap test before
 * kc_cx_is_constant, which is costly. */
int kc_affine_may_be_constant(struct fctx *fc, CXCursor c);

/* Convert an integer expression to a polynomial in size symbols and loop variables (index helpers of the file
 * whose body is `return EXPR;` are expanded; / and % by a constant as C computes them, a quotient of sizes
 * that does not divide exactly being a derived floor symbol, or a warning where C's truncation is not shown
 * to be that floor); -1 when it is not one (data-dependent, floating, a division by a size or by zero, or an
 * unsupported operator). */
int kc_affine_expr(struct fctx *fc, CXCursor c, struct kc_poly **out);

/* An integer local initialized with a min()/max() of affine expressions (`int jend = imin(jj + T, n)`, `int
 * m = a < b ? a : b`): its operands, computed now, stand for it in a loop bound (until it is assigned). */
void kc_affine_note_minmax(struct fctx *fc, struct var *v, CXCursor init);

/* The loop variable of a for statement (entered as V_LOOP with its symbol) and its start value (*start NULL
 * when data-dependent); NULL when the header has no variable kcost can follow. */
struct var *kc_affine_loop_var(struct fctx *fc, struct kc_cx_for_parts *p, struct kc_poly **start);
/* c names v somewhere (depth: of the recursion, from 0). */
int kc_affine_refers_to(struct fctx *fc, CXCursor c, const struct var *v, int depth);

#define KC_MAX_TABLE 4096 /* entries of a const table kcost reads (kc_affine_table_entry) */

/* The entry a subscript c of a const integer table reads at a constant index (the index affine and constant
 * where it is evaluated: eband20ms[i + 1] with i known); -1 for any other expression. */
int kc_affine_table_entry(struct fctx *fc, CXCursor c, long long *out);
/* 1 when c reads a const integer table at an index that names v (whose value would decide the entry). */
int kc_affine_reads_table(struct fctx *fc, CXCursor c, const struct var *v, int depth);

/* The constant step of the increment (++, --, += c, -= c, v = v + c); -1 when it has none. With `by` not
 * NULL, an increment by a positive expression of the sizes (i += inc_x, i = i + s) is a step too: *by is
 * that expression and *step KC_STEP_BY (by NULL, or *by NULL: a constant step). */
int kc_affine_loop_step(struct fctx *fc, CXCursor inc, struct var *v, long long *step, struct kc_poly **by);
/* Add the bounds a condition puts on loop->var to loop->upper[] (v <= bound) or loop->lower[] (v >= bound);
 * -1 when the condition is not affine in v with coefficient +-1. */
int kc_affine_loop_cond(struct fctx *fc, CXCursor cond, struct kc_node *loop, long long step);
/* 1 when v, stepping through loop's bounds in its C type, may wrap around (or start outside its type) before
 * a bound ends the loop: an infinite loop that bounds alone would count as finite (rule in affine.c); 2 when
 * moreover v is signed and cond (the loop's condition) compares it in an unsigned type, where it must stay
 * non-negative; 0 when the loop ends as its bounds say. */
int kc_affine_loop_wraps(struct fctx *fc, const struct var *v, CXCursor cond, const struct kc_node *loop);
/* The value of the loop variable after the loop, or NULL. */
struct kc_poly *kc_affine_exit_value(struct fctx *fc, const struct kc_node *loop);
/* The KCOST_TRIPS total annotated for the loop variable v (the annotation is marked as naming a loop), or
 * NULL. */
struct kc_poly *kc_affine_trips(struct fctx *fc, struct var *v);

/* The guards of an if condition as affine constraints n->guard[g] >= 0 (all hold): 0 when they say the
 * condition, 1 when they say its negation (x != y, A || B: the caller swaps the branches), -1 when neither is
 * a conjunction of affine comparisons (data-dependent), -2 when it needs more than KC_MAX_BOUNDS of them. */
int kc_affine_guards(struct fctx *fc, CXCursor c, struct kc_node *n);

/* What the variables known so far hold (kind, value, min/max, alias): saved before a branch and restored before
 * the other, which starts from the state before the if, not from the end of the first (*n: how many; free()
 * the result; NULL when out of memory, which kc_affine_restore takes as nothing to restore). */
struct kc_var_state;
struct kc_var_state *kc_affine_save(struct fctx *fc, int *n);
void kc_affine_restore(struct fctx *fc, const struct kc_var_state *s, int n);

#endif
