/* fuzz_rich.c — libFuzzer target for the rich policy's weights reader (policy:weights=FILE with a
 * rich file, mc:prior-weights=FILE, est-weights=FILE): any bytes as a file's text (up to its
 * first NUL byte, as the file reader refuses NUL bytes). Nothing may crash, read out of bounds
 * or loop; what it accepts holds finite weights only, and its indices were in range. */
#include "fuzz/fuzz_text.h"
#include "players/rich.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    static RichWeights w;
    char err[512] = "";
    if (rich_parse(text, "fuzz", &w, err, sizeof err) == 0) {
        if (!fuzz_all_finite(w.play, RICH_NPLAY) || !fuzz_all_finite(w.exch, POLICY_NEXCH) ||
            !fuzz_all_finite(w.net, RICH_NNET) || w.nhid < 0 || w.nhid > RICH_HID_MAX)
            abort();
    } else if (!err[0]) {
        abort(); /* a refusal always says why */
    }
    free(text);
    return 0;
}
