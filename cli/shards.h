/* shards.h — `kcost --no-run -j N FILE...`: the files analyzed in N kcost processes, each over a contiguous share
 * of them, their reports joined by kcost merge (reporter/merge.h) into the one report directory. */
#ifndef KC_SHARDS_H
#define KC_SHARDS_H

#include "options.h"

/* Whether the run goes to shards: --no-run, -j 2 or more given, two files or more, no --baseline. */
int kc_shards_wanted(const struct kc_options *o);

/* Run the shards and merge them (argc/argv: kcost's own command line). Returns kcost's exit status: the worst of
 * the shards' (1 when a shard's input had errors) and the merge's. */
int kc_shards_run(const struct kc_options *o, int argc, char **argv);

#endif
