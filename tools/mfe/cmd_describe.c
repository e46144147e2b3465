#include <stdio.h>
#include "cli.h"
int mfe_skel_describe(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "mfe skel describe: TEMPORARY — being written\n");
    return MFE_USAGE;
}
