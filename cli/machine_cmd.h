/* machine_cmd.h — `kcost machine`. */
#ifndef KC_MACHINE_CMD_H
#define KC_MACHINE_CMD_H

/* argv[0] is "machine". Exit status: 0, 2 for a usage error, 3 when the JSON could not be built. */
int kc_cli_machine(int argc, char **argv);

#endif
