/* machine.c — names of the machine model. */
#include "machine.h"

#include <string.h>

const char *kc_level_name(enum kc_level l)
{
	static const char *const names[KC_LEVEL_N] = {"L1", "L2", "L3", "DRAM"};
	return (unsigned)l < KC_LEVEL_N ? names[l] : "?";
}

const char *kc_stream_name(enum kc_stream k)
{
	static const char *const names[KC_STREAM_N] = {"load", "copy", "triad", "update"};
	return (unsigned)k < KC_STREAM_N ? names[k] : "?";
}

const char *kc_isa_name(enum kc_isa isa)
{
	static const char *const names[KC_ISA_N] = {"scalar", "SSE", "AVX2", "AVX-512"};
	return isa >= 0 && isa < KC_ISA_N ? names[isa] : "?";
}

const struct kc_libm_cost *kc_machine_libm(const struct kc_machine *m, const char *name)
{
	for (int i = 0; m && name && i < m->n_libm; i++)
		if (!strcmp(m->libm[i].name, name))
			return &m->libm[i];
	return NULL;
}
