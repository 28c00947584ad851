/* rng.h — a small, fast, seeded random number generator (SplitMix64).
 *
 * The state is one 64-bit word owned by the caller and passed explicitly, so every random
 * decision in dhm is reproducible from (run seed, set index, game index, ...) and never
 * depends on thread count or timing. rng_derive() mixes several numbers into a fresh seed.
 */
#ifndef DHM_RNG_H
#define DHM_RNG_H

#include <stdint.h>

typedef struct Rng {
    uint64_t s;
} Rng;

static inline uint64_t rng_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline Rng rng_seed(uint64_t seed)
{
    Rng r = {rng_mix64(seed ^ 0x6a09e667f3bcc909ULL)};
    return r;
}

static inline uint64_t rng_next(Rng *r)
{
    r->s += 0x9e3779b97f4a7c15ULL;
    return rng_mix64(r->s);
}

/* Uniform integer in [0, n), n >= 1, without bias (Lemire's multiply-and-reject). */
static inline uint32_t rng_below(Rng *r, uint32_t n)
{
    uint64_t m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
    uint32_t lo = (uint32_t)m;
    if (lo < n) {
        uint32_t t = (uint32_t)(0u - n) % n;
        while (lo < t) {
            m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
            lo = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Uniform double in [0, 1). */
static inline double rng_double(Rng *r) { return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }

/* A seed derived from a base seed and two indices (e.g. run seed, set, game). */
static inline uint64_t rng_derive(uint64_t seed, uint64_t a, uint64_t b)
{
    return rng_mix64(rng_mix64(rng_mix64(seed) ^ (a + 0x9e3779b97f4a7c15ULL)) ^ (b + 0xd1b54a32d192ed03ULL));
}

/* A uniformly random card of the set c (c non-empty). */
static inline int rng_pick_bit(Rng *r, uint64_t c)
{
    uint32_t k = rng_below(r, (uint32_t)__builtin_popcountll(c));
    while (k--)
        c &= c - 1;
    return __builtin_ctzll(c);
}

#endif
