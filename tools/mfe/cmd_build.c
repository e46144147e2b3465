#include <stdio.h>
#include "cli.h"
int mfe_skel_build(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "mfe skel build: TEMPORARY — being written\n");
    return MFE_USAGE;
}
