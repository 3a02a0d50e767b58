/* progress.h — one-line progress on a TTY for long steps; silent when stderr is not a TTY or --quiet. */
#ifndef KC_PROGRESS_H
#define KC_PROGRESS_H

void kc_progress_init(int enabled);
/* Show "kcost: STEP [i/n] WHAT" on one self-overwriting line (n == 0: no counter). */
void kc_progress(const char *step, int i, int n, const char *what);
/* Erase the progress line (before printing anything else to stderr). */
void kc_progress_done(void);

#endif
