/* simd_paths.h - the tests that run every SIMD path ask ts_path_runs(p):
 * true when this machine runs the path; when it does not, the test says it
 * left that path out (once per test and path, a skipped part in the
 * summary) instead of passing silently. Include after utest.h. */
#ifndef OSSA_TEST_SIMD_PATHS_H
#define OSSA_TEST_SIMD_PATHS_H

#include <stdbool.h>

#include "ossa/simd.h"
#include "utest.h"

static inline bool ts_path_runs(ossa_simd_path path)
{
    static const char *test;
    static unsigned reported;
    if (ossa_simd_path_supported(path))
        return true;
    if (test != utest_current_) {
        test = utest_current_;
        reported = 0;
    }
    if (!(reported & (1u << path))) {
        reported |= 1u << path;
        SKIP_PART("path %s: this CPU or build cannot run it", ossa_simd_path_name(path));
    }
    return false;
}

#endif /* OSSA_TEST_SIMD_PATHS_H */
