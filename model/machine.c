/* machine.c — names of the machine model. */
#include "machine.h"

const char *kc_level_name(enum kc_level l)
{
	static const char *const names[KC_LEVEL_N] = {"L1", "L2", "L3", "DRAM"};
	return (unsigned)l < KC_LEVEL_N ? names[l] : "?";
}
