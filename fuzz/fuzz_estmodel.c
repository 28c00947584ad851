/* fuzz_estmodel.c — libFuzzer target for the estimation model reader (est-model=FILE): any
 * bytes as a file's text (up to its first NUL byte, as the file reader refuses NUL bytes).
 * Nothing may crash, read out of bounds or loop; what it accepts holds numbers in [-100, 100]. */
#include <math.h>

#include "fuzz/fuzz_text.h"
#include "players/estimate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    static EstModel m;
    char err[512] = "";
    if (est_model_parse(text, "fuzz", &m, err, sizeof err) == 0) {
        for (int c = 0; c < EST_CLASSES; c++)
            for (int b = 0; b < EST_BINS; b++)
                if (!(fabs(m.prior[c][b]) <= 100))
                    abort();
        for (int e = 0; e < EST_EVENTS; e++)
            for (int r = 0; r < EST_REL; r++)
                if (!(fabs(m.ev[e][r]) <= 100))
                    abort();
    } else if (!err[0]) {
        abort(); /* a refusal always says why */
    }
    free(text);
    return 0;
}
