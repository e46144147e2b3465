#include <stdio.h>
#include "cli.h"
int mfe_skel_fmt(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "mfe skel fmt: TEMPORARY — being written\n");
    return MFE_USAGE;
}
