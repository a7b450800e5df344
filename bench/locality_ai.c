/* locality_ai.c - seed 003's experiment (c) for `ossa bench locality`: an AI
 * component with its cold loot data inline (two cache lines) vs split into the
 * 20 hot bytes the update touches and the cold rest. */
#include <stdint.h>
#include <string.h>

#include "cli.h"
#include "locality.h"

#define DT (1.0f / 60.0f)

enum { ANIM_WALK, ANIM_TIRED };

struct fat_ai { /* the seed's AIComponent with its loot and more inline */
    uint32_t animation;
    float energy;
    float goal[3];
    /* cold: read when the character dies or is inspected */
    uint32_t loot_type;
    int min_drops, max_drops;
    double chance_of_drop;
    char name[32];
    float spawn_position[3];
    uint32_t kills, deaths;
    double spawn_time;
    float statistics[6];
};

struct hot_ai { /* what the update touches: 20 bytes */
    uint32_t animation;
    float energy;
    float goal[3];
};

struct cold_ai {
    uint32_t loot_type;
    int min_drops, max_drops;
    double chance_of_drop;
    char name[32];
    float spawn_position[3];
    uint32_t kills, deaths;
    double spawn_time;
    float statistics[6];
};

#define AI_UPDATE(a)                                                                           \
    do {                                                                                       \
        (a)->energy -= 0.05f * DT;                                                             \
        (a)->goal[0] += DT * (a)->energy;                                                      \
        (a)->goal[2] -= DT * (a)->energy;                                                      \
        (a)->animation = (a)->energy < 0.3f ? ANIM_TIRED : ANIM_WALK;                          \
    } while (0)

_Static_assert(sizeof(fat_ai) == 128, "the fat component is two cache lines");
_Static_assert(sizeof(hot_ai) == 20, "the hot part is 20 bytes");

void ai_fat_init(ai_fat *x, int count, locality_rng *rng)
{
    x->count = count;
    x->ai = cli_alloc(sizeof *x->ai * (size_t)count);
    memset(x->ai, 0, sizeof *x->ai * (size_t)count);
    for (int i = 0; i < count; ++i)
        x->ai[i].energy = locality_rndf(rng);
}

void ai_split_init(ai_split *x, int count, locality_rng *rng)
{
    x->count = count;
    x->hot = cli_alloc(sizeof *x->hot * (size_t)count);
    x->cold = cli_alloc(sizeof *x->cold * (size_t)count);
    memset(x->hot, 0, sizeof *x->hot * (size_t)count);
    memset(x->cold, 0, sizeof *x->cold * (size_t)count);
    for (int i = 0; i < count; ++i)
        x->hot[i].energy = locality_rndf(rng);
}

void ai_fat_fini(ai_fat *x)
{
    cli_free(x->ai);
}

void ai_split_fini(ai_split *x)
{
    cli_free(x->hot);
    cli_free(x->cold);
}

void ai_fat_frame(void *ctx)
{
    ai_fat *x = ctx;
    for (int i = 0; i < x->count; ++i)
        AI_UPDATE(&x->ai[i]);
}

void ai_split_frame(void *ctx)
{
    ai_split *x = ctx;
    for (int i = 0; i < x->count; ++i)
        AI_UPDATE(&x->hot[i]);
}
