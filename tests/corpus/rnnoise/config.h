/* A stand-in for the config.h autoconf writes (not from rnnoise): empty, the defaults apply. */
