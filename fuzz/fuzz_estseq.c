/* fuzz_estseq.c — libFuzzer target for the learned estimator's sequence model reader
 * (est=net:seq=1:model=FILE, mc:est=net:est-seq=1:est-model=FILE): any bytes as a file's text
 * (up to its first NUL byte). Nothing may crash, read out of bounds or loop; a refusal always says why; what it
 * accepts holds finite numbers in [-1e4, 1e4]. */
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
    const int rc = estseq_parse(text, "fuzz", &n, err, sizeof err);
    if (rc == 0 ? !fuzz_all_within_f((const float *)&n, sizeof n / sizeof(float), 1e4f) : !err[0])
        abort();
    free(text);
    return 0;
}
