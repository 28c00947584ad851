/* fuzz_estseq.c — libFuzzer target for the learned estimator's sequence model reader
 * (est=net:seq=1:model=FILE, mc:est=net:est-seq=1:est-model=FILE): any bytes as a file's text
 * (up to its first NUL byte). Nothing may crash, read out of bounds or loop; a refusal always says why; what it
 * accepts holds finite numbers in [-1e4, 1e4]. */
#include <math.h>

#include "fuzz/fuzz_text.h"
#include "players/estseq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    static EstSeq n;
    char err[512] = "";
    if (estseq_parse(text, "fuzz", &n, err, sizeof err) == 0) {
        const float *w = (const float *)&n;
        for (size_t i = 0; i < sizeof n / sizeof *w; i++)
            if (!(fabsf(w[i]) <= 1e4f))
                abort();
    } else if (!err[0]) {
        abort();
    }
    free(text);
    return 0;
}
