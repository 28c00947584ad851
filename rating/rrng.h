/* rrng.h — a small seeded generator for rating/ and analysis/ (PCG32). rating/ knows nothing
 * of the game, so it does not use core/rng.h; state is one word passed explicitly. */
#ifndef DHM_RRNG_H
#define DHM_RRNG_H

#include <stdint.h>

typedef struct RRng {
    uint64_t s;
} RRng;

static inline uint32_t rrng_next(RRng *r)
{
    uint64_t old = r->s;
    r->s = old * 6364136223846793005ULL + 1442695040888963407ULL;
    uint32_t x = (uint32_t)(((old >> 18) ^ old) >> 27), rot = (uint32_t)(old >> 59);
    return (x >> rot) | (x << ((32 - rot) & 31));
}
/* Uniform in [0, 1). */
static inline double rrng_double(RRng *r) { return (rrng_next(r) >> 5) * (1.0 / 134217728.0); }
static inline RRng rrng_seed(uint64_t seed)
{
    RRng r = {seed * 0x9e3779b97f4a7c15ULL + 0x853c49e6748fea9bULL};
    rrng_next(&r);
    return r;
}

#endif
