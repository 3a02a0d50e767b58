/* frontend.c — the analyzer's entry point: parse each file with libclang, reprint clang's diagnostics, find
 * the file's function definitions, have them lowered (lower.c) and put them into the analysis model. */
#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>

#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer.h"
#include "clang_util.h"
#include "fe_int.h"
#include "lower.h"

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
	if (!file || !clang_File_isEqual(file, fe->main_file))
		return CXChildVisit_Continue;
	if (fe->n_funcs == fe->cap_funcs) {
		int cap = fe->cap_funcs ? 2 * fe->cap_funcs : 64;
		struct tu_func *grown = realloc(fe->funcs, sizeof *grown * (size_t)cap);
		if (!grown) { /* analyze what was collected */
			kc_diag_add(fe->a, &fe->an->diags, kc_cx_loc(fe, c), KC_ERROR, NULL,
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
	return CXChildVisit_Continue;
}

static void report_clang_diags(struct fe *fe, CXTranslationUnit tu, int *errors)
{
	unsigned n = clang_getNumDiagnostics(tu);
	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		if (sev >= CXDiagnostic_Warning) {
			CXString msg = clang_getDiagnosticSpelling(d);
			enum kc_severity ks = sev >= CXDiagnostic_Error ? KC_ERROR : KC_WARNING;
			kc_diag_add(fe->a, &fe->an->diags, kc_cx_location(fe, clang_getDiagnosticLocation(d)), ks, NULL,
			            "%s", clang_getCString(msg));
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
static struct kc_function *file_function(struct fe *fe, const char *name)
{
	for (int i = 0; name && i < fe->n_funcs; i++)
		if (fe->funcs[i].ir && !strcmp(fe->funcs[i].ir->fn->name, name))
			return fe->funcs[i].ir->fn;
	return NULL;
}

static int parse_file(struct fe *fe, CXIndex index, int file_index)
{
	const char *file = fe->an->files[file_index];
	const char **argv;
	int argc = build_args(fe, file, &argv);
	CXTranslationUnit tu = NULL;
	enum CXErrorCode ec =
	    clang_parseTranslationUnit2(index, file, argv, argc, NULL, 0, CXTranslationUnit_KeepGoing, &tu);
	fe->path = file;
	if (ec != CXError_Success || !tu) {
		kc_diag_add(fe->a, &fe->an->diags, (struct kc_loc){file, 0, 0}, KC_ERROR, NULL,
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
	report_clang_diags(fe, tu, &errors);
	if (errors)
		fe->an->parse_failed = 1;
	fe->n_funcs = 0;
	clang_visitChildren(clang_getTranslationUnitCursor(tu), collect_function, fe);
	kc_lower_file(fe);
	/* every analyzed function goes into the model — the runner looks references up there — but only the
	 * wanted ones are reported (skip is set on the others) */
	for (int i = 0; i < fe->n_funcs; i++) {
		struct tu_func *tf = &fe->funcs[i];
		if (!tf->ir)
			continue;
		if (!wanted(fe, tf->name))
			tf->ir->fn->skip = 1;
		tf->ir->fn->file_index = file_index;
		tf->ir->fn->reference_fn = file_function(fe, tf->ir->fn->reference);
		add_function(fe->an, tf->ir->fn);
	}
	clang_disposeTranslationUnit(tu);
	return 0;
}

struct analyze_job {
	struct fe *fe;
	const char *const *files;
	int n_files;
};

static void *analyze_files(void *arg)
{
	struct analyze_job *job = arg;
	struct fe *fe = job->fe;
	CXIndex index = clang_createIndex(0, 0);
	for (int i = 0; i < job->n_files; i++) {
		fe->an->files[i] = kc_arena_strdup(fe->a, job->files[i]);
		parse_file(fe, index, i);
	}
	clang_disposeIndex(index);
	return NULL;
}

/* Run analyze_files on a thread with a stack for KC_MAX_DEPTH levels; on this thread if none can be made. */
static void analyze_on_big_stack(struct analyze_job *job)
{
	pthread_attr_t attr;
	pthread_t thread;
	int made = pthread_attr_init(&attr) == 0;
	if (made) {
		made = pthread_attr_setstacksize(&attr, KC_IR_STACK_BYTES) == 0 &&
		       pthread_create(&thread, &attr, analyze_files, job) == 0;
		pthread_attr_destroy(&attr);
	}
	if (made)
		pthread_join(thread, NULL);
	else
		analyze_files(job);
}

int kc_analyze(struct kc_analysis *an, const char *const *files, int n_files, const struct kc_analyze_opts *o)
{
	struct fe *fe = calloc(1, sizeof *fe);
	if (!fe) {
		kc_diag_add(&an->arena, &an->diags, (struct kc_loc){0}, KC_ERROR, NULL, "out of memory%s", "");
		return -1;
	}
	fe->an = an;
	fe->a = &an->arena;
	fe->opts = o;
	an->files = KC_NEW_N(&an->arena, const char *, n_files + 1);
	an->n_files = n_files;
	if (o->function_regex) {
		if (regcomp(&fe->re, o->function_regex, REG_EXTENDED | REG_NOSUB) != 0) {
			kc_diag_add(fe->a, &an->diags, (struct kc_loc){0}, KC_ERROR, NULL,
			            "invalid --function regex '%s'", o->function_regex);
			free(fe);
			return -1;
		}
		fe->has_re = 1;
	}
	struct analyze_job job = {fe, files, n_files};
	analyze_on_big_stack(&job);
	if (fe->has_re)
		regfree(&fe->re);
	free(fe->funcs);
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
