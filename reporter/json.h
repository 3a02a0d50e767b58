/* json.h — internal to reporter/: report.json (schema 1; json.c's opening comment lists every key), as a cJSON
 * document or as text written one function at a time, optionally with a helper thread's objects. */
#ifndef KC_JSON_H
#define KC_JSON_H

#include "buf.h"
#include "figures.h"
#include "measure.h"
#include "output.h"

struct cJSON;

/* The whole document from rf's figures (rf->graphs may be NULL: the graphs' paths are then the ones
 * kc_report_write would give them). The caller owns the result and cJSON_Delete()s it; NULL on out-of-memory.
 * Uses cJSON's allocator as set: not under kc_json_hooks(1). */
struct cJSON *kc_json_document(struct kc_report_figures *rf, const struct kc_measurements *m,
                               const struct kc_output_meta *meta);

/* report.json's text (without the final newline) appended to s, the same bytes as cJSON_Print of
 * kc_json_document's document; built and printed one function at a time, so a large report never holds the
 * whole tree. The objects of pieces' functions come from p (NULL: all built here). Sets kc_json_hooks(1)
 * for its duration and undoes it. 0, or -1 on out-of-memory (the sink then holds a partial text). */
int kc_json_write(struct kc_output_sink *s, struct kc_report_figures *rf, const struct kc_measurements *m,
                  const struct kc_output_meta *meta, const struct kc_output_pieces *p);

/* One function's object, for a thread that renders some of them. kc_json_hooks(1) makes cJSON allocate from
 * the building thread's scratch memory (and 0 undoes it): set it around the whole writing, while no other
 * code uses cJSON. Each thread opens its own kc_json_text (NULL on out-of-memory; closing NULL does nothing);
 * kc_json_text_function appends function i's object to out (no separator: ", " goes between them) and
 * returns 0, or -1 on out-of-memory. */
/* Append item as cJSON_Print writes it (formatted, byte for byte), much faster; 0, or -1 (b unchanged) where
 * cJSON_Print would fail. */
int kc_json_print(struct kc_buf *b, const struct cJSON *item);

struct kc_json_text;
void kc_json_hooks(int on);
struct kc_json_text *kc_json_text_open(void);
void kc_json_text_close(struct kc_json_text *t);
int kc_json_text_function(struct kc_json_text *t, struct kc_buf *out, struct kc_report_figures *rf, int i,
                          const struct kc_measurements *m);

#endif
