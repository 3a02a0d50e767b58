/* check.h — invariants: what cannot happen unless kcost itself is wrong.
 *
 * KC_ASSERT(cond) and KC_BUG(msg) print "kcost: internal error at file:line: ..." on stderr and abort, in
 * every build (as git's BUG() and SQLite's NEVER(): an invariant that fails must not turn into a wrong
 * number). They are for invariants only; what the *input* can cause — a full table, a deep recursion, an
 * overflow — is a diagnostic (diag.h), never an abort. */
#ifndef KC_CHECK_H
#define KC_CHECK_H

#if defined(__GNUC__)
__attribute__((noreturn, cold))
#endif
void kc_check_fail(const char *file, int line, const char *what, const char *msg);

#define KC_ASSERT(cond) ((cond) ? (void)0 : kc_check_fail(__FILE__, __LINE__, #cond, NULL))
#define KC_BUG(msg)     kc_check_fail(__FILE__, __LINE__, NULL, (msg))

#endif
