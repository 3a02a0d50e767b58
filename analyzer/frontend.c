/* frontend.c — the analyzer's entry point: parse each file with libclang, reprint clang's diagnostics, find
 * the file's function definitions, have them lowered (lower.c) and put them into the analysis model; and
 * contain libclang's own limits (a stack overflow, a device read without end, a parse that blocks). */
#define _GNU_SOURCE /* sigaltstack, SA_ONSTACK */
#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <regex.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "analyzer.h"
#include "clang_util.h"
#include "decls.h"
#include "fe_int.h"
#include "lower.h"
#include "source.h"
#include "split.h"

/* ------------------------------------------------------------------------------------------------ */
/* Translation units */

static enum CXChildVisitResult collect_function(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct fe *fe = data;
	if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	/* where the definition is expanded: a kernel a macro of the file defines belongs to the file */
	CXFile file;
	clang_getExpansionLocation(clang_getCursorLocation(c), &file, NULL, NULL, NULL);
	/* a helper a header of the user's defines (darknet's `static inline float logistic_activate`) is counted
	 * where the file's functions call it; a system header's are libraries */
	int in_header = file && !clang_File_isEqual(file, fe->main_file);
	if (!file || (in_header && clang_Location_isInSystemHeader(clang_getCursorLocation(c))))
		return CXChildVisit_Continue;
	if (fe->n_funcs == fe->cap_funcs) {
		int cap = fe->cap_funcs ? 2 * fe->cap_funcs : 64;
		struct tu_func *grown = realloc(fe->funcs, sizeof *grown * (size_t)cap);
		if (!grown) { /* analyze what was collected */
			kc_diag_add(fe->a, fe->diags, kc_cx_loc(fe, c), KC_ERROR, KC_DIAG_NOT_ANALYZED, NULL,
			            "out of memory: this and the following functions are not analyzed");
			return CXChildVisit_Break;
		}
		fe->funcs = grown;
		fe->cap_funcs = cap;
	}
	struct tu_func *tf = &fe->funcs[fe->n_funcs++];
	tf->cursor = c;
	tf->name = kc_cx_spelling(fe->a, c);
	tf->state = FN_UNSEEN;
	tf->ir = NULL;
	tf->site_sizes = NULL;
	tf->writes = NULL;
	tf->in_header = in_header;
	tf->cited = 0;
	tf->blanked = tf->foreign = tf->in_region = 0;
	tf->at = 0;
	return CXChildVisit_Continue;
}

struct part;
static int part_diagnostic(const struct part *p, CXDiagnostic d);

/* clang's diagnostics of the translation unit into the file's; for a part of a file parsed in parts (p not
 * NULL), only the warnings of headers, which every part has (part_diagnostic). */
static void report_clang_diags(struct fe *fe, CXTranslationUnit tu, int *errors, const struct part *p)
{
	unsigned n = clang_getNumDiagnostics(tu);
	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		if (sev >= CXDiagnostic_Warning && (!p || part_diagnostic(p, d) == 1)) {
			CXString msg = clang_getDiagnosticSpelling(d);
			enum kc_severity ks = sev >= CXDiagnostic_Error ? KC_ERROR : KC_WARNING;
			kc_diag_add(fe->a, &fe->an->diags, kc_cx_location(fe, clang_getDiagnosticLocation(d)), ks,
			            KC_DIAG_COMPILER, NULL, "%s", clang_getCString(msg));
			clang_disposeString(msg);
			if (ks == KC_ERROR)
				(*errors)++;
		}
		clang_disposeDiagnostic(d);
	}
}

/* Flags for one file: the user's, plus those of its compile_commands.json entry (-p), into *argv (in the
 * arena). Returns their number. */
static int build_args(struct fe *fe, const char *file, const char ***argv_out)
{
	CXCompileCommand cmd = NULL;
	CXCompileCommands cmds = NULL;
	CXCompilationDatabase db = NULL;
	if (fe->opts->compile_db) {
		CXCompilationDatabase_Error err;
		db = clang_CompilationDatabase_fromDirectory(fe->opts->compile_db, &err);
		cmds = db ? clang_CompilationDatabase_getCompileCommands(db, file) : NULL;
		if (cmds && clang_CompileCommands_getSize(cmds) > 0)
			cmd = clang_CompileCommands_getCommand(cmds, 0);
	}
	unsigned na = cmd ? clang_CompileCommand_getNumArgs(cmd) : 0;
	const char **argv = *argv_out = KC_NEW_N(fe->a, const char *, 3 + (size_t)na + (size_t)fe->opts->n_args);
	int n = 0;
	argv[n++] = "-xc";
	if (fe->opts->include_dir) {
		argv[n++] = "-I";
		argv[n++] = fe->opts->include_dir;
	}
	for (unsigned i = 1; i < na; i++) {
		CXString s = clang_CompileCommand_getArg(cmd, i);
		const char *t = clang_getCString(s);
		/* keep the flags that shape the parse; drop -c, -o X and the file itself */
		if (!strncmp(t, "-I", 2) || !strncmp(t, "-D", 2) || !strncmp(t, "-U", 2) || !strncmp(t, "-std=", 5) ||
		    !strncmp(t, "-include", 8) || !strncmp(t, "-isystem", 8) || !strncmp(t, "-f", 2) ||
		    !strncmp(t, "-m", 2))
			argv[n++] = kc_arena_strdup(fe->a, t);
		clang_disposeString(s);
	}
	if (db) {
		clang_CompileCommands_dispose(cmds);
		clang_CompilationDatabase_dispose(db);
	}
	for (int i = 0; i < fe->opts->n_args; i++)
		argv[n++] = fe->opts->args[i];
	return n;
}

static int wanted(struct fe *fe, const char *name)
{
	return !fe->has_re || regexec(&fe->re, name, 0, NULL, 0) == 0;
}

static void add_function(struct kc_analysis *an, struct kc_function *f)
{
	int n = an->n_functions;
	if ((n & (n - 1)) == 0) { /* capacity is the next power of two: grow when n reaches one */
		struct kc_function **grown = KC_NEW_N(&an->arena, struct kc_function *, n ? 2 * n : 1);
		if (n)
			memcpy(grown, an->functions, sizeof *grown * (size_t)n);
		an->functions = grown;
	}
	f->index = an->n_functions;
	an->functions[an->n_functions++] = f;
}

/* The function named `name` among the file's analyzed ones, or NULL. */
static struct kc_function *file_function(const struct tu_func *funcs, int n, const char *name)
{
	for (int i = 0; name && i < n; i++)
		if (funcs[i].ir && !strcmp(funcs[i].ir->fn->name, name))
			return funcs[i].ir->fn;
	return NULL;
}

/* Put the file's analyzed functions into the model. Every one goes in — the runner looks references up
 * there — but only the wanted ones are reported (skip is set on the others). */
static void add_functions(struct fe *fe, const struct tu_func *funcs, int n, int file_index)
{
	for (int i = 0; i < n; i++) {
		const struct tu_func *tf = &funcs[i];
		if (!tf->ir)
			continue;
		/* a header's helper is reported only to show the warnings its callers point to */
		if (!wanted(fe, tf->name) || (tf->in_header && !tf->cited))
			tf->ir->fn->skip = 1;
		tf->ir->fn->file_index = file_index;
		tf->ir->fn->reference_fn = file_function(funcs, n, tf->ir->fn->reference);
		add_function(fe->an, tf->ir->fn);
	}
}

/* ------------------------------------------------------------------------------------------------ */
/* Containing libclang
 *
 * The parse runs on the analysis thread itself (LIBCLANG_NOTHREADS: libclang's own 8 MiB parse thread would
 * overflow first, and a thread it makes cannot be given an alternate signal stack), whose stack is sized for
 * the lowering. A deeper overflow raises SIGSEGV on a guard page: the thread's alternate signal stack lets
 * libclang's crash recovery handler run and return CXError_Crashed. The main thread watches each parse: one
 * that makes no progress (no CPU time) for PARSE_STALL_SECONDS is abandoned (it is blocked reading a FIFO, a
 * pipe or a terminal); one that reads a device, a FIFO or a socket the process did not hold before has that
 * descriptor swapped for a directory's, so that its next read fails and the file is an error (no crash, no
 * signal: this holds under ASan as well); every parse runs under an address-space limit of
 * PARSE_MEMORY_BYTES more than kcost held (a huge regular file: libclang recovers from the failed allocation);
 * and one that has used more CPU time than the budget (kc_analyze_opts.parse_cpu_seconds; libclang is
 * quadratic on some inputs, 25,000 nested `if` take 20 s) is abandoned too. An abandoned parse cannot be
 * stopped (libclang has no cancellation): its thread is left at the lowest priority, and kc_analyze_stray_threads
 * tells the caller to end with _exit, as libLLVM's static destructors must not run under a thread inside it. */

#define PARSE_STALL_SECONDS 5
#define PARSE_CPU_SECONDS   60.0 /* the default budget */
#define PARSE_MEMORY_BYTES  ((rlim_t)4 << 30)
#define WATCH_TICK_NS       100000000L
#define ALT_STACK_BYTES     (256 * 1024)
#define GUARD_BYTES         (1 << 20) /* larger than any frame of libclang's: an overflow cannot skip it */
#define KNOWN_FDS           1024

/* The analysis of files [first, n_files) on one thread, and what the watchdog and that thread share (under
 * mu). An abandoned job is never freed: its thread may still wake up and read it. */
struct analyze_job {
	struct fe *fe;
	const char *const *files;
	int n_files, first;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int finished;
	int parsing;     /* the file being parsed, or -1 */
	int abandoned;   /* the watchdog gave up on the parse: the thread must not touch fe again */
	int over_budget; /* it was abandoned for its CPU time, not for a stall */
	pid_t tid;       /* the thread's, for its priority once abandoned */
	int limited;     /* the address-space limit was lowered for the parse; saved holds the one to restore */
	struct rlimit saved;
	char device[4096]; /* a non-regular file the parse was reading when the watchdog stopped it (PATH_MAX) */
	int suspect_fd[KC_SPLIT_MAX_PARTS]; /* the non-regular files seen on the last tick (one a part) */
	struct stat suspect[KC_SPLIT_MAX_PARTS];
	int n_suspects;
	const unsigned char *known_fds; /* bitmap of the descriptors open before the analysis */
	/* a file parsed in parts (split.h): the other parts' threads, whose CPU time is the parse's too */
	clockid_t part_clock[KC_SPLIT_MAX_PARTS];
	int n_part_clocks;
	int parts_parsing;                  /* part threads still in their parse */
	pid_t part_tid[KC_SPLIT_MAX_PARTS]; /* theirs, for their priority once abandoned */
	int n_part_tids;
	int part_threads; /* part threads running (stray ones too, when the parse is abandoned) */
};

static unsigned long long address_space_bytes(void)
{
	unsigned long long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%llu", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	return pages * (unsigned long long)sysconf(_SC_PAGESIZE);
}

/* Lower the soft RLIMIT_AS to `bytes` above what the process holds, unless it is lower already (under mu). */
static void limit_address_space(struct analyze_job *job, rlim_t bytes)
{
	struct rlimit now;
	unsigned long long used = address_space_bytes();
	if (!used || getrlimit(RLIMIT_AS, &now) != 0)
		return;
	rlim_t want = (rlim_t)used + bytes;
	if (now.rlim_cur != RLIM_INFINITY && now.rlim_cur <= want)
		return;
	if (!job->limited)
		job->saved = now;
	struct rlimit lowered = {want, now.rlim_max};
	if (setrlimit(RLIMIT_AS, &lowered) == 0)
		job->limited = 1;
}

static void restore_address_space(struct analyze_job *job)
{
	if (job->limited)
		setrlimit(RLIMIT_AS, &job->saved);
	job->limited = 0;
}

static void parse_begin(struct analyze_job *job, int file_index)
{
	pthread_mutex_lock(&job->mu);
	job->parsing = file_index;
	job->n_suspects = 0;
	job->device[0] = 0;
	limit_address_space(job, PARSE_MEMORY_BYTES);
	pthread_mutex_unlock(&job->mu);
}

/* 1 if the watchdog abandoned the parse: the caller leaves at once. */
static int parse_end(struct analyze_job *job)
{
	pthread_mutex_lock(&job->mu);
	int abandoned = job->abandoned;
	if (!abandoned) {
		job->parsing = -1;
		restore_address_space(job);
		pthread_cond_broadcast(&job->cv); /* parts of the file wait for it to lower */
	}
	pthread_mutex_unlock(&job->mu);
	return abandoned;
}

/* libclang's crash recovery handlers (installed by clang_createIndex) run on the alternate signal stack, so
 * that they can run at all after a stack overflow. */
static void recover_on_alt_stack(void)
{
	static const int signals[] = {SIGSEGV, SIGBUS};
	for (size_t i = 0; i < sizeof signals / sizeof *signals; i++) {
		struct sigaction act;
		if (sigaction(signals[i], NULL, &act) != 0 || act.sa_handler == SIG_DFL || act.sa_handler == SIG_IGN)
			continue;
		act.sa_flags |= SA_ONSTACK;
		sigaction(signals[i], &act, NULL);
	}
}

/* ------------------------------------------------------------------------------------------------ */
/* A file parsed in parts (split.h)
 *
 * Each part parses the file with the other parts' definitions blanked and lowers its own functions, on a
 * thread of its own (part 0 on the job's thread), into an arena of its own; the functions are then put into
 * the model in the file's order, as a whole parse would have put them. Whatever the split did not foresee
 * sends the file to a whole parse, nothing of the parts kept: an error, or a warning of the file's own text
 * (part_diagnostic); a region that is not exactly a function's body in its part (mark_functions); a call
 * into a body the part blanked, or of a function it does not define that another part defines
 * (kc_decl_split_calls_ok, defined_where_called); a function two parts lowered whose sizes came from call
 * sites, one name at two places, or parts disagreeing on the order of their common functions
 * (order_functions, merge_parts). The watchdog watches the parts' parses as one: any part's CPU time is
 * progress, each part is held to the budget, and none lowers until every parse is over. */

#define SPLIT_MIN_BODIES 64 /* fewer function bodies: parsed whole (each part parses the declarations again) */

struct part {
	struct analyze_job *job;
	const struct kc_split *split;
	int part;
	const char *file;
	const char **argv;
	int argc;
	atomic_int *wrong;     /* shared by the parts: one found the split wrong */
	struct kc_analysis an; /* the part's arenas and diagnostics */
	struct fe fe;
	CXIndex index;
	CXTranslationUnit tu;
	char *warnings; /* the header warnings of its parse, as clang formats them, one a line (malloc'd) */
	int ok;         /* parsed and lowered as the split foresaw */
};

/* One file's split and its parts: never freed while a part's thread may still run (an abandoned parse). */
struct split_run {
	struct kc_split split;
	atomic_int wrong;
	pthread_t thread[KC_SPLIT_MAX_PARTS];
	int started[KC_SPLIT_MAX_PARTS];
	struct part parts[KC_SPLIT_MAX_PARTS];
};

static int split_parts(const struct fe *fe)
{
	if (fe->opts->threads == 1)
		return 1;
	if (fe->opts->threads > 1)
		return fe->opts->threads < KC_SPLIT_MAX_PARTS ? fe->opts->threads : KC_SPLIT_MAX_PARTS;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	return cores < 2 ? 1 : cores < KC_SPLIT_MAX_PARTS ? (int)cores : KC_SPLIT_MAX_PARTS;
}

/* 1 when offset `at` of the main file is in a body part p parses blanked. */
static int in_blanked(const struct part *p, size_t at)
{
	const struct kc_split *sp = p->split;
	int lo = 0, hi = sp->n_bodies;
	while (lo < hi) { /* the last body opening at or before at */
		int mid = (lo + hi) / 2;
		if (sp->bodies[mid].open <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct kc_split_body *b = lo > 0 ? &sp->bodies[lo - 1] : NULL;
	return b && at <= b->close && b->part != p->part;
}

/* What a diagnostic of part p's parse means for the split: 0 nothing (a note, or a warning inside a body the
 * part parsed blanked: "a non-void function does not return a value" is the blanking's), 1 a warning of a
 * header (every part parses the headers alike; the parts must agree on them), -1 a split the file cannot
 * take: an error, or a warning of the file's own text (a part may lack what a whole parse saw first, a
 * declaration in a blanked body: the file is parsed whole). */
static int part_diagnostic(const struct part *p, CXDiagnostic d)
{
	enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
	if (sev < CXDiagnostic_Warning)
		return 0;
	if (sev >= CXDiagnostic_Error)
		return -1;
	CXFile file, main_file = clang_getFile(p->tu, p->file);
	unsigned at;
	clang_getExpansionLocation(clang_getDiagnosticLocation(d), &file, NULL, NULL, &at);
	if (!file || !main_file)
		return -1;
	if (clang_File_isEqual(file, main_file))
		return in_blanked(p, at) ? 0 : -1;
	return 1;
}

/* 0 when the part's diagnostics let the split stand (its header warnings then into p->warnings), else -1. */
static int check_diagnostics(struct part *p)
{
	unsigned n = clang_getNumDiagnostics(p->tu);
	struct kc_buf b = KC_BUF_INIT;
	int ok = 1;
	for (unsigned i = 0; i < n && ok; i++) {
		CXDiagnostic d = clang_getDiagnostic(p->tu, i);
		int k = part_diagnostic(p, d);
		if (k < 0)
			ok = 0;
		else if (k == 1) {
			CXString text =
			    clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn);
			kc_buf_printf(&b, "%s\n", clang_getCString(text));
			clang_disposeString(text);
		}
		clang_disposeDiagnostic(d);
	}
	p->warnings = ok && b.len ? strdup(kc_buf_str(&b)) : NULL;
	kc_buf_release(&b);
	return ok ? 0 : -1;
}

static void part_parse(struct part *p)
{
	struct CXUnsavedFile u = {p->file, p->split->text[p->part], (unsigned long)p->split->len};
	enum CXErrorCode ec = clang_parseTranslationUnit2(p->index, p->file, p->argv, p->argc, &u, 1,
	                                                  CXTranslationUnit_KeepGoing, &p->tu);
	if (ec != CXError_Success || !p->tu)
		atomic_store(p->wrong, 1);
}

/* The offsets of the '{' and '}' of function c's body in the main file; -1 when it has none there. */
static int body_offsets(struct fe *fe, CXCursor c, size_t *open, size_t *close)
{
	struct child_list l;
	kc_cx_children(c, &l);
	if (!l.n || clang_getCursorKind(l.c[l.n - 1]) != CXCursor_CompoundStmt)
		return -1;
	CXSourceRange r = clang_getCursorExtent(l.c[l.n - 1]);
	CXFile f1, f2;
	unsigned a, b;
	clang_getExpansionLocation(clang_getRangeStart(r), &f1, NULL, NULL, &a);
	clang_getExpansionLocation(clang_getRangeEnd(r), &f2, NULL, NULL, &b);
	if (!f1 || !f2 || !clang_File_isEqual(f1, fe->main_file) || !clang_File_isEqual(f2, fe->main_file) || b <= a)
		return -1;
	*open = a;
	*close = b - 1; /* the range ends past the '}' */
	return 0;
}

/* Which of the part's functions it lowers, which it parsed blanked; -1 when a region of the part is not
 * exactly the body of one of its functions. */
static int mark_functions(struct part *p)
{
	struct fe *fe = &p->fe;
	int mine = 0, matched = 0;
	for (int i = 0; i < p->split->n_bodies; i++)
		mine += p->split->bodies[i].part == p->part;
	for (int i = 0; i < fe->n_funcs; i++) {
		struct tu_func *tf = &fe->funcs[i];
		size_t open, close;
		const struct kc_split_body *b = NULL;
		CXFile file;
		unsigned at = 0;
		clang_getExpansionLocation(clang_getCursorLocation(tf->cursor), &file, NULL, NULL, &at);
		tf->at = at;
		if (!tf->in_header && body_offsets(fe, tf->cursor, &open, &close) == 0)
			b = kc_split_body_at(p->split, open);
		if (!b) { /* parsed by every part: part 0 lowers it (others as a callee, when they call it) */
			tf->foreign = p->part != 0;
			continue;
		}
		if (b->close != close || (b->removed && b->part != p->part))
			return -1; /* (a definition this part does not parse cannot be in it) */
		if (b->part == p->part)
			matched++;
		else
			tf->blanked = tf->foreign = 1;
		tf->in_region = b->part == p->part;
	}
	return matched == mine ? 0 : -1;
}

static void part_lower(struct part *p)
{
	struct fe *fe = &p->fe;
	if (atomic_load(p->wrong) || check_diagnostics(p) < 0) {
		atomic_store(p->wrong, 1);
		return;
	}
	*fe = (struct fe){.an = &p->an, .a = &p->an.arena, .opts = p->job->fe->opts, .path = p->file};
	fe->diags = &p->an.diags;
	fe->split = 1;
	kc_cx_begin(fe->a);
	fe->main_file = clang_getFile(p->tu, p->file);
	kc_cx_index_main_file(fe, p->tu);
	if (p->part == 0) { /* the headers' warnings, which every part has (checked before the merge) */
		int errors = 0;
		report_clang_diags(fe, p->tu, &errors, p);
	}
	clang_visitChildren(clang_getTranslationUnitCursor(p->tu), collect_function, fe);
	if (mark_functions(p) < 0 || atomic_load(p->wrong)) {
		atomic_store(p->wrong, 1);
		return;
	}
	kc_lower_file(fe);
	if (fe->split_wrong || !kc_decl_split_calls_ok(fe))
		atomic_store(p->wrong, 1);
	else
		p->ok = 1;
}

static void part_dispose(struct part *p)
{
	if (p->tu)
		clang_disposeTranslationUnit(p->tu);
	if (p->index)
		clang_disposeIndex(p->index);
	p->tu = NULL;
	p->index = NULL;
}

/* An alternate signal stack for this thread (libclang's crash recovery runs on it after a stack overflow);
 * NULL when none could be set. */
static void *alt_stack_on(void)
{
	stack_t alt = {.ss_sp = malloc(ALT_STACK_BYTES), .ss_size = ALT_STACK_BYTES};
	if (alt.ss_sp && sigaltstack(&alt, NULL) != 0) {
		free(alt.ss_sp);
		alt.ss_sp = NULL;
	}
	return alt.ss_sp;
}

static void alt_stack_off(void *stack)
{
	if (!stack)
		return;
	stack_t off = {.ss_flags = SS_DISABLE};
	sigaltstack(&off, NULL);
	free(stack);
}

static void *part_main(void *arg)
{
	struct part *p = arg;
	struct analyze_job *job = p->job;
	void *alt = alt_stack_on();
	pthread_mutex_lock(&job->mu);
	if (job->n_part_tids < KC_SPLIT_MAX_PARTS)
		job->part_tid[job->n_part_tids++] = (pid_t)syscall(SYS_gettid);
	pthread_mutex_unlock(&job->mu);
	part_parse(p);
	/* the lowering waits for every part's parse to be over: the watchdog cannot abandon it midway */
	pthread_mutex_lock(&job->mu);
	job->parts_parsing--;
	pthread_cond_broadcast(&job->cv);
	while (job->parsing >= 0 && !job->abandoned)
		pthread_cond_wait(&job->cv, &job->mu);
	int abandoned = job->abandoned;
	pthread_mutex_unlock(&job->mu);
	if (!abandoned) {
		part_lower(p);
		part_dispose(p);
	}
	alt_stack_off(alt);
	pthread_mutex_lock(&job->mu);
	job->part_threads--;
	pthread_mutex_unlock(&job->mu);
	return NULL;
}

static void part_forget(struct part *p)
{
	part_dispose(p);
	free(p->warnings);
	free(p->fe.undefined);
	free(p->fe.funcs);
	free(p->fe.sites);
	free(p->fe.globals);
	free(p->fe.spare);
	kc_analysis_release(&p->an);
}

static void append_diags(struct kc_diags *to, struct kc_diags *from)
{
	if (!from->head)
		return;
	if (to->tail)
		to->tail->next = from->head;
	else
		to->head = from->head;
	to->tail = from->tail;
	to->errors += from->errors;
	to->warnings += from->warnings;
	*from = (struct kc_diags){0};
}

/* One function of the file across the parts: its place in each part's list, or -1. */
struct across {
	const char *name;
	size_t at;
	int in[KC_SPLIT_MAX_PARTS];
	int present;
};

struct named_entry {
	const char *name;
	int part, index;
};

static int cmp_named_entry(const void *x, const void *y)
{
	const struct named_entry *a = x, *b = y;
	int c = strcmp(a->name, b->name);
	return c ? c : a->part - b->part;
}

static int cmp_across_at(const void *x, const void *y)
{
	const struct across *a = *(const struct across *const *)x, *b = *(const struct across *const *)y;
	return a->at != b->at ? (a->at < b->at ? -1 : 1) : strcmp(a->name, b->name);
}

/* The file's functions in a whole parse's order, from the parts' lists (each in that order): the functions
 * every part has (a header's, or one whose body no part blanks) in the order the parts agree on, and between
 * two of them those of one part only (removed from the others), by their place in the file. NULL when the
 * parts disagree (then nothing is merged) or out of memory; *n_out is their number. */
static struct across **order_functions(struct split_run *run, struct across **all_out, int *n_out)
{
	int n_parts = run->split.parts, total = 0;
	for (int q = 0; q < n_parts; q++)
		total += run->parts[q].fe.n_funcs;
	struct named_entry *e = malloc(sizeof *e * (size_t)(total + 1));
	struct across *all = malloc(sizeof *all * (size_t)(total + 1));
	struct across **order = malloc(sizeof *order * (size_t)(total + 1));
	int *id[KC_SPLIT_MAX_PARTS] = {0}, ok = e && all && order, n = 0, k = 0;
	for (int q = 0; ok && q < n_parts; q++)
		ok = (id[q] = malloc(sizeof *id[q] * (size_t)(run->parts[q].fe.n_funcs + 1))) != NULL;
	for (int q = 0; ok && q < n_parts; q++)
		for (int i = 0; i < run->parts[q].fe.n_funcs; i++)
			e[k++] = (struct named_entry){run->parts[q].fe.funcs[i].name, q, i};
	if (ok)
		qsort(e, (size_t)total, sizeof *e, cmp_named_entry);
	for (int i = 0; ok && i < total; i++) {
		if (!n || strcmp(all[n - 1].name, e[i].name) != 0) {
			all[n] = (struct across){.name = e[i].name};
			for (int q = 0; q < n_parts; q++)
				all[n].in[q] = -1;
			n++;
		}
		struct across *a = &all[n - 1];
		const struct tu_func *tf = &run->parts[e[i].part].fe.funcs[e[i].index];
		if (a->in[e[i].part] >= 0) { /* two definitions of one name */
			ok = 0;
			break;
		}
		if (a->present && a->at != tf->at) { /* one name, two functions (a definition the split hid) */
			ok = 0;
			break;
		}
		a->in[e[i].part] = e[i].index;
		a->at = tf->at;
		a->present++;
		id[e[i].part][e[i].index] = n - 1;
	}
	/* the parts' lists, side by side: each common function ends a stretch of functions of one part */
	int pos[KC_SPLIT_MAX_PARTS] = {0}, m = 0;
	while (ok) {
		int first = m, common = -1;
		for (int q = 0; q < n_parts && ok; q++) {
			const struct fe *pf = &run->parts[q].fe;
			for (; pos[q] < pf->n_funcs; pos[q]++) {
				struct across *a = &all[id[q][pos[q]]];
				if (a->present == n_parts)
					break;
				/* a function of one part only is the body of that part's region */
				if (a->present != 1 || !pf->funcs[pos[q]].in_region)
					ok = 0;
				order[m++] = a;
			}
			int c = pos[q] < pf->n_funcs ? id[q][pos[q]] : -2;
			if (q == 0)
				common = c;
			else if (c != common)
				ok = 0; /* the parts disagree on the order of their common functions */
		}
		if (!ok)
			break;
		qsort(order + first, (size_t)(m - first), sizeof *order, cmp_across_at);
		if (common < 0)
			break;
		order[m++] = &all[common];
		for (int q = 0; q < n_parts; q++)
			pos[q]++;
	}
	free(e);
	for (int q = 0; q < n_parts; q++)
		free(id[q]);
	if (!ok) {
		free(all);
		free(order);
		return NULL;
	}
	*all_out = all;
	*n_out = m;
	return order;
}

/* Put the parts' functions into the model; 0 when the split does not hold after all (nothing changed). */
static int merge_parts(struct split_run *run, struct fe *fe, int file_index)
{
	int n_parts = run->split.parts, n;
	struct across *all = NULL;
	struct across **order = order_functions(run, &all, &n);
	struct tu_func *merged = order ? malloc(sizeof *merged * (size_t)(n + 1)) : NULL;
	int *chosen = order ? malloc(sizeof *chosen * (size_t)(n + 1)) : NULL, ok = merged && chosen;
	for (int i = 0; ok && i < n; i++) {
		int lowered = 0, asked = 0, cited = 0, c = -1, any = -1;
		for (int q = 0; q < n_parts; q++) {
			if (order[i]->in[q] < 0)
				continue;
			const struct tu_func *tf = &run->parts[q].fe.funcs[order[i]->in[q]];
			cited |= tf->cited;
			if (any < 0)
				any = q;
			if (!tf->ir)
				continue;
			lowered++;
			asked |= tf->site_sizes != NULL;
			if (c < 0 || (!tf->foreign && run->parts[c].fe.funcs[order[i]->in[c]].foreign))
				c = q;
		}
		ok = !(lowered > 1 && asked); /* each part sized it from its own calls */
		merged[i] = run->parts[c >= 0 ? c : any].fe.funcs[order[i]->in[c >= 0 ? c : any]];
		merged[i].cited = cited;
		chosen[i] = c;
	}
	if (ok) {
		for (int q = 0; q < n_parts; q++) {
			kc_arena_adopt(&fe->an->arena, &run->parts[q].an.arena);
			kc_arena_adopt(&fe->an->arena2, &run->parts[q].an.arena2);
			append_diags(&fe->an->diags, &run->parts[q].an.diags);
		}
		add_functions(fe, merged, n, file_index);
		/* a callee lowered by several parts: its other copies stand for the one in the model */
		for (int i = 0; i < n; i++)
			for (int q = 0; chosen[i] >= 0 && q < n_parts; q++) {
				if (q == chosen[i] || order[i]->in[q] < 0)
					continue;
				const struct tu_func *tf = &run->parts[q].fe.funcs[order[i]->in[q]];
				if (tf->ir) {
					tf->ir->fn->index = merged[i].ir->fn->index;
					tf->ir->fn->file_index = file_index;
					tf->ir->fn->skip = 1;
				}
			}
	}
	free(merged);
	free(chosen);
	free(order);
	free(all);
	return ok;
}

static int cmp_name(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* 0 when a part calls a function it does not define and another part defines (the split removed it from the
 * caller's part: a name the split could not see, behind a macro or a line splice), else 1. */
static int defined_where_called(struct split_run *run)
{
	int n_parts = run->split.parts, ok = 1;
	const char **names[KC_SPLIT_MAX_PARTS] = {0};
	for (int q = 0; q < n_parts && ok; q++) {
		const struct fe *pf = &run->parts[q].fe;
		ok = (names[q] = malloc(sizeof *names[q] * (size_t)(pf->n_funcs + 1))) != NULL;
		for (int i = 0; ok && i < pf->n_funcs; i++)
			names[q][i] = pf->funcs[i].name;
		if (ok)
			qsort(names[q], (size_t)pf->n_funcs, sizeof *names[q], cmp_name);
	}
	for (int q = 0; q < n_parts && ok; q++)
		for (int u = 0; u < run->parts[q].fe.n_undefined && ok; u++)
			for (int r = 0; r < n_parts && ok; r++)
				ok = r == q || !bsearch(&run->parts[q].fe.undefined[u].name, names[r],
				                        (size_t)run->parts[r].fe.n_funcs, sizeof *names[r], cmp_name);
	for (int q = 0; q < n_parts; q++)
		free(names[q]);
	return ok;
}

/* Parse and lower file `file_index` in parts when it is worth it: 1 when done, 0 when the file is to be
 * parsed whole (no split, or one that did not hold: nothing of it is kept), -1 when the watchdog abandoned
 * the parse (the caller leaves at once). */
static int parse_in_parts(struct analyze_job *job, int file_index, const char **argv, int argc)
{
	struct fe *fe = job->fe;
	int n = split_parts(fe);
	const char *file = fe->an->files[file_index];
	const struct kc_source *src = n >= 2 ? kc_source_get(file) : NULL;
	if (!src || !src->text)
		return 0;
	struct split_run *run = calloc(1, sizeof *run);
	if (!run)
		return 0;
	kc_split_plan(&run->split, src->text, src->len, n, fe->opts->threads > 1 ? 2 : SPLIT_MIN_BODIES);
	n = run->split.parts;
	if (n < 2) {
		kc_split_release(&run->split);
		free(run);
		return 0;
	}
	for (int q = 0; q < n; q++)
		run->parts[q] = (struct part){.job = job,
		                              .split = &run->split,
		                              .part = q,
		                              .file = file,
		                              .argv = argv,
		                              .argc = argc,
		                              .wrong = &run->wrong};
	parse_begin(job, file_index);
	pthread_mutex_lock(&job->mu);
	job->parts_parsing = job->part_threads = job->n_part_clocks = job->n_part_tids = 0;
	pthread_mutex_unlock(&job->mu);
	/* the indexes on this thread, one after the other: libclang's set-up is its own global state; what runs at
	 * once is the parses of separate translation units, which libclang allows */
	for (int q = 0; q < n; q++)
		run->parts[q].index = clang_createIndex(0, 0);
	recover_on_alt_stack();
	for (int q = 1; q < n; q++) {
		pthread_attr_t attr;
		int made = pthread_attr_init(&attr) == 0;
		if (made) {
			pthread_mutex_lock(&job->mu);
			job->parts_parsing++;
			job->part_threads++;
			pthread_mutex_unlock(&job->mu);
			made = pthread_attr_setstacksize(&attr, KC_IR_STACK_BYTES) == 0 &&
			       pthread_attr_setguardsize(&attr, GUARD_BYTES) == 0 &&
			       pthread_create(&run->thread[q], &attr, part_main, &run->parts[q]) == 0;
			pthread_attr_destroy(&attr);
			pthread_mutex_lock(&job->mu);
			clockid_t clock;
			if (!made) {
				job->parts_parsing--;
				job->part_threads--;
			} else if (pthread_getcpuclockid(run->thread[q], &clock) == 0) {
				job->part_clock[job->n_part_clocks++] = clock;
			}
			pthread_mutex_unlock(&job->mu);
		}
		run->started[q] = made;
		if (!made)
			atomic_store(&run->wrong, 1);
	}
	part_parse(&run->parts[0]);
	pthread_mutex_lock(&job->mu);
	while (job->parts_parsing > 0 && !job->abandoned)
		pthread_cond_wait(&job->cv, &job->mu);
	pthread_mutex_unlock(&job->mu);
	if (parse_end(job))
		return -1; /* the parts may still run: run stays */
	part_lower(&run->parts[0]);
	part_dispose(&run->parts[0]);
	for (int q = 1; q < n; q++)
		if (run->started[q])
			pthread_join(run->thread[q], NULL);
	pthread_mutex_lock(&job->mu);
	job->n_part_clocks = 0;
	pthread_mutex_unlock(&job->mu);
	fe->path = file;
	int agree = !atomic_load(&run->wrong) && defined_where_called(run); /* and on the headers' warnings: */
	for (int q = 1; q < n; q++)
		agree &= !run->parts[q].warnings == !run->parts[0].warnings &&
		         (!run->parts[0].warnings || !strcmp(run->parts[q].warnings, run->parts[0].warnings));
	int done = !atomic_load(&run->wrong) && agree && merge_parts(run, fe, file_index);
	fe->an->parsed_in_parts += done;
	for (int q = 0; q < n; q++)
		part_forget(&run->parts[q]);
	kc_split_release(&run->split);
	free(run);
	return done;
}

static int parse_file(struct analyze_job *job, CXIndex index, int file_index)
{
	struct fe *fe = job->fe;
	const char *file = fe->an->files[file_index];
	const char **argv;
	int argc = build_args(fe, file, &argv);
	int parts = parse_in_parts(job, file_index, argv, argc);
	if (parts != 0)
		return parts < 0 ? -1 : 0;
	CXTranslationUnit tu = NULL;
	parse_begin(job, file_index);
	enum CXErrorCode ec =
	    clang_parseTranslationUnit2(index, file, argv, argc, NULL, 0, CXTranslationUnit_KeepGoing, &tu);
	if (parse_end(job))
		return -1;
	fe->path = file;
	if (job->device[0] && tu) { /* its errors say the include failed; the diagnostic below says why */
		clang_disposeTranslationUnit(tu);
		tu = NULL;
	}
	if (ec != CXError_Success || !tu) {
		struct kc_loc at = {file, 0, 0};
		if (job->device[0])
			kc_diag_add(fe->a, &fe->an->diags, at, KC_ERROR, KC_DIAG_PARSE, NULL,
			            "the parse read '%s', which is not a regular file: it was stopped", job->device);
		else if (ec == CXError_Crashed)
			kc_diag_add(
			    fe->a, &fe->an->diags, at, KC_ERROR, KC_DIAG_PARSE, NULL,
			    "libclang crashed parsing the file (nested too deeply for its stack, or out of memory)");
		else
			kc_diag_add(fe->a, &fe->an->diags, at, KC_ERROR, KC_DIAG_PARSE, NULL,
			            ec == CXError_ASTReadError ? "could not read the file"
			                                       : "could not parse the file (libclang error %d)",
			            (int)ec);
		fe->an->parse_failed = 1;
		return 0;
	}
	kc_cx_begin(fe->a);
	fe->main_file = clang_getFile(tu, file);
	kc_cx_index_main_file(fe, tu);
	int errors = 0;
	report_clang_diags(fe, tu, &errors, NULL);
	if (errors)
		fe->an->parse_failed = 1;
	fe->n_funcs = 0;
	fe->n_sites = 0;
	fe->sites_built = 0;
	fe->n_globals = 0;
	clang_visitChildren(clang_getTranslationUnitCursor(tu), collect_function, fe);
	kc_lower_file(fe);
	add_functions(fe, fe->funcs, fe->n_funcs, file_index);
	clang_disposeTranslationUnit(tu);
	return 0;
}

static void *analyze_files(void *arg)
{
	struct analyze_job *job = arg;
	struct fe *fe = job->fe;
	void *alt = alt_stack_on();
	pthread_mutex_lock(&job->mu);
	job->tid = (pid_t)syscall(SYS_gettid);
	pthread_mutex_unlock(&job->mu);
	CXIndex index = clang_createIndex(0, 0);
	recover_on_alt_stack();
	int abandoned = 0;
	for (int i = job->first; i < job->n_files && !abandoned; i++) {
		fe->an->files[i] = kc_arena_strdup(fe->a, job->files[i]);
		abandoned = parse_file(job, index, i) < 0;
	}
	if (abandoned) /* the watchdog owns fe now; the index may hold what the parse left behind */
		return NULL;
	clang_disposeIndex(index);
	alt_stack_off(alt);
	pthread_mutex_lock(&job->mu);
	job->finished = 1;
	pthread_cond_signal(&job->cv);
	pthread_mutex_unlock(&job->mu);
	return NULL;
}

/* The descriptors open now, as a bitmap of KNOWN_FDS bits (malloc'd; NULL if /proc cannot be read). */
static unsigned char *open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned char *bits = d ? calloc(KNOWN_FDS / 8, 1) : NULL;
	for (struct dirent *e; bits && (e = readdir(d));) {
		int fd = atoi(e->d_name);
		if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && fd != dirfd(d) && fd < KNOWN_FDS)
			bits[fd / 8] |= (unsigned char)(1 << (fd % 8));
	}
	if (d)
		closedir(d);
	return bits;
}

/* The descriptors the parse opened on a device other than /dev/null, a FIFO or a socket (at most `max`, into
 * fds and st); returns their number. */
static int devices_being_read(const struct analyze_job *job, int *fds, struct stat *st, int max)
{
	/* tools (valgrind) keep their own descriptors above the limit; open() gives the parse the lowest free one */
	struct rlimit nofile;
	long above = getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < (rlim_t)1 << 30 ? (long)nofile.rlim_cur
	                                                                                         : 1L << 30;
	DIR *d = opendir("/proc/self/fd");
	int found = 0;
	for (struct dirent *e; d && found < max && (e = readdir(d));) {
		int fd = atoi(e->d_name);
		if (e->d_name[0] < '0' || e->d_name[0] > '9' || fd == dirfd(d) || fd >= above ||
		    (fd < KNOWN_FDS && job->known_fds[fd / 8] & (1 << (fd % 8))))
			continue;
		if (fstatat(dirfd(d), e->d_name, &st[found], 0) != 0 || S_ISREG(st[found].st_mode) ||
		    S_ISDIR(st[found].st_mode) || (S_ISCHR(st[found].st_mode) && st[found].st_rdev == makedev(1u, 3u)))
			continue;
		fds[found++] = fd;
	}
	if (d)
		closedir(d);
	return found;
}

/* A device seen on two ticks in a row is being read without end: its path into job->device (the first one's),
 * and its descriptor replaced by one of a directory, so that libclang's next read of it fails (EISDIR) and the
 * include is an error of the parse, which goes on; a parse blocked in that read is left to the stall check.
 * Each part of a file parsed in parts reads the device on a descriptor of its own: each is stopped (under mu). */
static void stop_device_reads(struct analyze_job *job)
{
	int fds[KC_SPLIT_MAX_PARTS];
	struct stat st[KC_SPLIT_MAX_PARTS];
	int n = job->known_fds ? devices_being_read(job, fds, st, KC_SPLIT_MAX_PARTS) : 0;
	for (int i = 0; i < n; i++) {
		int seen = 0;
		for (int k = 0; k < job->n_suspects && !seen; k++)
			seen = fds[i] == job->suspect_fd[k] && st[i].st_dev == job->suspect[k].st_dev &&
			       st[i].st_ino == job->suspect[k].st_ino;
		if (!seen)
			continue;
		if (!job->device[0]) {
			char link[64];
			snprintf(link, sizeof link, "/proc/self/fd/%d", fds[i]);
			ssize_t len = readlink(link, job->device, sizeof job->device - 1);
			job->device[len > 0 ? len : 0] = 0;
			if (!job->device[0])
				snprintf(job->device, sizeof job->device, "descriptor %d", fds[i]);
		}
		int dir = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dir >= 0) {
			dup3(dir, fds[i], O_CLOEXEC);
			close(dir);
		}
	}
	memcpy(job->suspect_fd, fds, sizeof *fds * (size_t)n);
	memcpy(job->suspect, st, sizeof *st * (size_t)n);
	job->n_suspects = n;
}

static double seconds(clockid_t clock)
{
	struct timespec t;
	return clock_gettime(clock, &t) == 0 ? (double)t.tv_sec + 1e-9 * (double)t.tv_nsec : 0;
}

static struct analyze_job *job_new(struct fe *fe, const char *const *files, int n_files, int first,
                                   const unsigned char *known_fds)
{
	struct analyze_job *job = calloc(1, sizeof *job);
	if (!job)
		return NULL;
	*job = (struct analyze_job){fe, files, n_files, first, .parsing = -1, .known_fds = known_fds};
	pthread_mutex_init(&job->mu, NULL);
	pthread_cond_init(&job->cv, NULL);
	return job;
}

/* Parses abandoned while their thread still runs (kc_analyze_stray_threads). */
static atomic_int stray_threads;

int kc_analyze_stray_threads(void)
{
	return atomic_load(&stray_threads);
}

static double budget_of(const struct fe *fe)
{
	return fe->opts->parse_cpu_seconds > 0 ? fe->opts->parse_cpu_seconds : PARSE_CPU_SECONDS;
}

/* Wait for the job's thread; 0 when it finished, else the file whose parse was abandoned. */
static int watch(struct analyze_job *job, pthread_t thread, int *abandoned_file)
{
	clockid_t cpu_clock;
	int have_cpu = pthread_getcpuclockid(thread, &cpu_clock) == 0;
	double budget = budget_of(job->fe);
	double progress_at = seconds(CLOCK_MONOTONIC), last_cpu = -1, file_cpu = 0;
	int last_file = -1, abandoned = 0;
	pthread_mutex_lock(&job->mu);
	while (!job->finished && !abandoned) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += WATCH_TICK_NS;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&job->cv, &job->mu, &until);
		if (job->finished || job->parsing < 0)
			continue;
		double now = seconds(CLOCK_MONOTONIC), own = have_cpu ? seconds(cpu_clock) : 0, cpu = own, most = 0;
		/* a file parsed in parts: any part's progress is the parse's; the budget is each part's, as every
		 * part repeats what the split could not divide */
		for (int i = 0; have_cpu && i < job->n_part_clocks; i++) {
			double t = seconds(job->part_clock[i]);
			cpu += t;
			most = t > most ? t : most;
		}
		if (job->parsing != last_file)
			file_cpu = own;
		if (have_cpu && job->parsing == last_file && (own - file_cpu >= budget || most >= budget)) {
			job->abandoned = abandoned = job->over_budget = 1;
			*abandoned_file = job->parsing;
			restore_address_space(job);
			break;
		}
		if (job->parsing != last_file || !have_cpu || cpu - last_cpu >= 1e-3) {
			progress_at = now;
			last_cpu = cpu;
			last_file = job->parsing;
		} else if (now - progress_at >= PARSE_STALL_SECONDS) {
			job->abandoned = abandoned = 1;
			*abandoned_file = job->parsing;
			restore_address_space(job);
			break;
		}
		stop_device_reads(job);
	}
	if (abandoned) { /* the parts of a file parsed in parts are left behind with it */
		atomic_fetch_add(&stray_threads, job->part_threads);
		pthread_cond_broadcast(&job->cv);
	}
	pthread_mutex_unlock(&job->mu);
	return abandoned;
}

/* Run analyze_files on threads with a stack for KC_MAX_DEPTH levels, watched; on this thread if none can be
 * made (then unwatched). */
static void analyze_watched(struct fe *fe, const char *const *files, int n_files)
{
	unsigned char *known_fds = open_fds();
	for (int first = 0; first < n_files;) {
		struct analyze_job *job = job_new(fe, files, n_files, first, known_fds);
		pthread_attr_t attr;
		pthread_t thread;
		int made = job && pthread_attr_init(&attr) == 0;
		if (made) {
			made = pthread_attr_setstacksize(&attr, KC_IR_STACK_BYTES) == 0 &&
			       pthread_attr_setguardsize(&attr, GUARD_BYTES) == 0 &&
			       pthread_create(&thread, &attr, analyze_files, job) == 0;
			pthread_attr_destroy(&attr);
		}
		if (!made) {
			struct analyze_job here = {fe, files, n_files, first, .parsing = -1};
			pthread_mutex_init(&here.mu, NULL);
			pthread_cond_init(&here.cv, NULL);
			analyze_files(&here);
			free(job);
			break;
		}
		int stalled;
		if (!watch(job, thread, &stalled)) {
			pthread_join(thread, NULL);
			free(job);
			break;
		}
		pthread_detach(thread); /* blocked or busy in libclang: left behind, never joined */
		atomic_fetch_add(&stray_threads, 1);
		pthread_mutex_lock(&job->mu);
		if (job->tid > 0)
			setpriority(PRIO_PROCESS, (id_t)job->tid, 19); /* a busy one takes what nothing else needs */
		for (int i = 0; i < job->n_part_tids; i++) /* and its parts, when the file was parsed in parts */
			setpriority(PRIO_PROCESS, (id_t)job->part_tid[i], 19);
		pthread_mutex_unlock(&job->mu);
		struct kc_loc at = {fe->an->files[stalled], 0, 0};
		if (job->over_budget)
			kc_diag_add(fe->a, &fe->an->diags, at, KC_ERROR, KC_DIAG_PARSE, NULL,
			            "the parse took more than %g s of CPU time (libclang is slow on some deeply nested "
			            "code; --parse-timeout sets the limit): it was abandoned",
			            budget_of(fe));
		else if (job->device[0]) /* the parse thread writes no more of the job: it is blocked or leaves */
			kc_diag_add(
			    fe->a, &fe->an->diags, at, KC_ERROR, KC_DIAG_PARSE, NULL,
			    "the parse made no progress for %d s reading '%s' (a FIFO, a pipe or a terminal?): it "
			    "was abandoned",
			    PARSE_STALL_SECONDS, job->device);
		else
			kc_diag_add(fe->a, &fe->an->diags, at, KC_ERROR, KC_DIAG_PARSE, NULL,
			            "the parse made no progress for %d s (reading a FIFO, a pipe or a terminal?): it "
			            "was abandoned",
			            PARSE_STALL_SECONDS);
		fe->an->parse_failed = 1;
		first = stalled + 1;
	}
	free(known_fds);
}

int kc_analyze(struct kc_analysis *an, const char *const *files, int n_files, const struct kc_analyze_opts *o)
{
	struct fe *fe = calloc(1, sizeof *fe);
	if (!fe) {
		kc_diag_add(&an->arena, &an->diags, (struct kc_loc){0}, KC_ERROR, KC_DIAG_NOT_ANALYZED, NULL,
		            "out of memory%s", "");
		return -1;
	}
	fe->an = an;
	fe->a = &an->arena;
	fe->diags = &an->diags;
	fe->opts = o;
	an->files = KC_NEW_N(&an->arena, const char *, n_files + 1);
	an->n_files = n_files;
	if (o->function_regex) {
		if (regcomp(&fe->re, o->function_regex, REG_EXTENDED | REG_NOSUB) != 0) {
			kc_diag_add(fe->a, &an->diags, (struct kc_loc){0}, KC_ERROR, KC_DIAG_NOT_ANALYZED, NULL,
			            "invalid --function regex '%s'", o->function_regex);
			free(fe);
			return -1;
		}
		fe->has_re = 1;
	}
	/* set while no other thread runs: getenv is not safe against a concurrent setenv */
	int had_nothreads = getenv("LIBCLANG_NOTHREADS") != NULL;
	if (!had_nothreads)
		setenv("LIBCLANG_NOTHREADS", "1", 1);
	analyze_watched(fe, files, n_files);
	if (!had_nothreads)
		unsetenv("LIBCLANG_NOTHREADS");
	if (fe->has_re)
		regfree(&fe->re);
	free(fe->funcs);
	free(fe->sites);
	free(fe->globals);
	free(fe->spare);
	free(fe);
	return 0;
}

void kc_analysis_release(struct kc_analysis *an)
{
	kc_arena_release(&an->arena);
	kc_arena_release(&an->arena2);
}

const char *kc_analyzer_clang_version(void)
{
	static char version[128];
	if (!version[0]) {
		CXString s = clang_getClangVersion();
		snprintf(version, sizeof version, "%s", clang_getCString(s));
		clang_disposeString(s);
	}
	return version;
}
