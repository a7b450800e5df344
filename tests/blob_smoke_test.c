/* blob_smoke_test.c - the default character survives write -> open. */
#include "ossa/pipeline.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

TEST(default_character_round_trips_through_a_blob)
{
    ossa_default_character c;
    ossa_error e;
    REQUIRE(ossa_default_character_build(&c, NULL, &e) == OSSA_OK);
    const ossa_clip *clips[3] = {c.clips[0], c.clips[1], c.clips[2]};
    ossa_blob_contents contents = {c.skeleton, clips, 3, NULL, 0};
    void *data;
    size_t bytes;
    REQUIRE(ossa_blob_write_memory(&contents, NULL, &data, &bytes, &e) == OSSA_OK);
    ossa_blob blob;
    CHECK_RESULT(ossa_blob_open(&blob, data, bytes, OSSA_BLOB_DEFAULT, &e), OSSA_OK);
    CHECK_INT(blob.clip_count, 3);
    CHECK_INT(ossa_skeleton_joint_count(blob.skeleton), 96);
    ossa_free(NULL, data);
    ossa_default_character_free(&c, NULL);
}

UTEST_MAIN(default_character_round_trips_through_a_blob)
