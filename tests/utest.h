/* utest.h - ossa's dependency-free test runner, one header.
 *
 *   TEST(sampling_is_exact_at_keys) { CHECK(...); REQUIRE(...); }
 *   UTEST_MAIN(sampling_is_exact_at_keys, ...)
 *
 * CHECK records a failure and continues; REQUIRE records it and leaves the
 * test. CHECK_NEAR compares with an explicit tolerance, CHECK_RESULT an
 * ossa_result with its name in the message. `./x_test name` runs one test.
 * A test may SKIP("why") when an optional input (a model file) is absent. */
#ifndef OSSA_UTEST_H
#define OSSA_UTEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct utest_case {
    const char *name;
    void (*fn)(void);
} utest_case;

static int utest_failures_;
static int utest_checks_;
static int utest_skipped_;
static int utest_parts_skipped_;
static const char *utest_current_;

static void utest_fail_(const char *file, int line, const char *what)
{
    ++utest_failures_;
    fprintf(stderr, "%s:%d: %s: FAILED %s\n", file, line, utest_current_, what);
}

#define UTEST_STR_(x) #x
#define CHECK(cond)                                                                            \
    do {                                                                                       \
        ++utest_checks_;                                                                       \
        if (!(cond))                                                                           \
            utest_fail_(__FILE__, __LINE__, "CHECK(" #cond ")");                               \
    } while (0)
#define REQUIRE(cond)                                                                          \
    do {                                                                                       \
        ++utest_checks_;                                                                       \
        if (!(cond)) {                                                                         \
            utest_fail_(__FILE__, __LINE__, "REQUIRE(" #cond ")");                             \
            return;                                                                            \
        }                                                                                      \
    } while (0)
#define CHECK_NEAR(a, b, tol)                                                                  \
    do {                                                                                       \
        ++utest_checks_;                                                                       \
        double utest_a_ = (double)(a), utest_b_ = (double)(b), utest_t_ = (double)(tol);       \
        if (!(fabs(utest_a_ - utest_b_) <= utest_t_)) {                                        \
            char utest_m_[256];                                                                \
            snprintf(utest_m_, sizeof utest_m_, "CHECK_NEAR(%s, %s): %.9g vs %.9g, diff %.3g > %.3g", \
                     #a, #b, utest_a_, utest_b_, fabs(utest_a_ - utest_b_), utest_t_);         \
            utest_fail_(__FILE__, __LINE__, utest_m_);                                         \
        }                                                                                      \
    } while (0)
#define CHECK_INT(a, b)                                                                        \
    do {                                                                                       \
        ++utest_checks_;                                                                       \
        long long utest_a_ = (long long)(a), utest_b_ = (long long)(b);                        \
        if (utest_a_ != utest_b_) {                                                            \
            char utest_m_[256];                                                                \
            snprintf(utest_m_, sizeof utest_m_, "CHECK_INT(%s, %s): %lld vs %lld", #a, #b,     \
                     utest_a_, utest_b_);                                                      \
            utest_fail_(__FILE__, __LINE__, utest_m_);                                         \
        }                                                                                      \
    } while (0)
/* Needs ossa/result.h included before use. */
#define CHECK_RESULT(expr, expected)                                                           \
    do {                                                                                       \
        ++utest_checks_;                                                                       \
        ossa_result utest_r_ = (expr), utest_e_ = (expected);                                  \
        if (utest_r_ != utest_e_) {                                                            \
            char utest_m_[256];                                                                \
            snprintf(utest_m_, sizeof utest_m_, "%s gave %s, expected %s", #expr,              \
                     ossa_result_name(utest_r_), ossa_result_name(utest_e_));                  \
            utest_fail_(__FILE__, __LINE__, utest_m_);                                         \
        }                                                                                      \
    } while (0)
#define SKIP(why)                                                                              \
    do {                                                                                       \
        ++utest_skipped_;                                                                      \
        fprintf(stderr, "%s: SKIPPED: %s\n", utest_current_, why);                             \
        return;                                                                                \
    } while (0)

/* A test that runs but leaves part of its cases out (a SIMD path this CPU
 * lacks, say) says so: printed, and counted in the summary line. */
#define SKIP_PART(...)                                                                         \
    do {                                                                                       \
        ++utest_parts_skipped_;                                                                \
        fprintf(stderr, "%s: skipped part: ", utest_current_);                                 \
        fprintf(stderr, __VA_ARGS__);                                                          \
        fputc('\n', stderr);                                                                   \
    } while (0)

#define TEST(name) static void name(void)

static int utest_run_(const utest_case *cases, int count, int argc, char **argv)
{
    int ran = 0;
    for (int i = 0; i < count; ++i) {
        if (argc > 1 && strcmp(argv[1], cases[i].name) != 0)
            continue;
        utest_current_ = cases[i].name;
        int before = utest_failures_, skipped = utest_skipped_;
        cases[i].fn();
        ++ran;
        fprintf(stderr, "%-60s %s\n", cases[i].name,
                utest_failures_ != before ? "FAIL" : (utest_skipped_ != skipped ? "skip" : "ok"));
    }
    fprintf(stderr, "%d tests, %d checks, %d failures, %d skipped", ran, utest_checks_,
            utest_failures_, utest_skipped_);
    if (utest_parts_skipped_)
        fprintf(stderr, ", %d parts skipped (see above)", utest_parts_skipped_);
    fputc('\n', stderr);
    if (argc > 1 && ran == 0) {
        fprintf(stderr, "no test named %s\n", argv[1]);
        return 2;
    }
    if (utest_failures_)
        return 1;
    return ran > 0 && utest_skipped_ == ran ? 77 : 0;
}

#define UTEST_ENTRY_(fn) {#fn, fn},
#define UTEST_MAIN(...) UTEST_MAIN_IMPL_(__VA_ARGS__)
/* Expands each name into a table entry (up to 64 tests per file). */
#define UTEST_FE_1(m, x) m(x)
#define UTEST_FE_2(m, x, ...) m(x) UTEST_FE_1(m, __VA_ARGS__)
#define UTEST_FE_3(m, x, ...) m(x) UTEST_FE_2(m, __VA_ARGS__)
#define UTEST_FE_4(m, x, ...) m(x) UTEST_FE_3(m, __VA_ARGS__)
#define UTEST_FE_5(m, x, ...) m(x) UTEST_FE_4(m, __VA_ARGS__)
#define UTEST_FE_6(m, x, ...) m(x) UTEST_FE_5(m, __VA_ARGS__)
#define UTEST_FE_7(m, x, ...) m(x) UTEST_FE_6(m, __VA_ARGS__)
#define UTEST_FE_8(m, x, ...) m(x) UTEST_FE_7(m, __VA_ARGS__)
#define UTEST_FE_9(m, x, ...) m(x) UTEST_FE_8(m, __VA_ARGS__)
#define UTEST_FE_10(m, x, ...) m(x) UTEST_FE_9(m, __VA_ARGS__)
#define UTEST_FE_11(m, x, ...) m(x) UTEST_FE_10(m, __VA_ARGS__)
#define UTEST_FE_12(m, x, ...) m(x) UTEST_FE_11(m, __VA_ARGS__)
#define UTEST_FE_13(m, x, ...) m(x) UTEST_FE_12(m, __VA_ARGS__)
#define UTEST_FE_14(m, x, ...) m(x) UTEST_FE_13(m, __VA_ARGS__)
#define UTEST_FE_15(m, x, ...) m(x) UTEST_FE_14(m, __VA_ARGS__)
#define UTEST_FE_16(m, x, ...) m(x) UTEST_FE_15(m, __VA_ARGS__)
#define UTEST_FE_17(m, x, ...) m(x) UTEST_FE_16(m, __VA_ARGS__)
#define UTEST_FE_18(m, x, ...) m(x) UTEST_FE_17(m, __VA_ARGS__)
#define UTEST_FE_19(m, x, ...) m(x) UTEST_FE_18(m, __VA_ARGS__)
#define UTEST_FE_20(m, x, ...) m(x) UTEST_FE_19(m, __VA_ARGS__)
#define UTEST_FE_21(m, x, ...) m(x) UTEST_FE_20(m, __VA_ARGS__)
#define UTEST_FE_22(m, x, ...) m(x) UTEST_FE_21(m, __VA_ARGS__)
#define UTEST_FE_23(m, x, ...) m(x) UTEST_FE_22(m, __VA_ARGS__)
#define UTEST_FE_24(m, x, ...) m(x) UTEST_FE_23(m, __VA_ARGS__)
#define UTEST_FE_25(m, x, ...) m(x) UTEST_FE_24(m, __VA_ARGS__)
#define UTEST_FE_26(m, x, ...) m(x) UTEST_FE_25(m, __VA_ARGS__)
#define UTEST_FE_27(m, x, ...) m(x) UTEST_FE_26(m, __VA_ARGS__)
#define UTEST_FE_28(m, x, ...) m(x) UTEST_FE_27(m, __VA_ARGS__)
#define UTEST_FE_29(m, x, ...) m(x) UTEST_FE_28(m, __VA_ARGS__)
#define UTEST_FE_30(m, x, ...) m(x) UTEST_FE_29(m, __VA_ARGS__)
#define UTEST_FE_31(m, x, ...) m(x) UTEST_FE_30(m, __VA_ARGS__)
#define UTEST_FE_32(m, x, ...) m(x) UTEST_FE_31(m, __VA_ARGS__)
#define UTEST_FE_33(m, x, ...) m(x) UTEST_FE_32(m, __VA_ARGS__)
#define UTEST_FE_34(m, x, ...) m(x) UTEST_FE_33(m, __VA_ARGS__)
#define UTEST_FE_35(m, x, ...) m(x) UTEST_FE_34(m, __VA_ARGS__)
#define UTEST_FE_36(m, x, ...) m(x) UTEST_FE_35(m, __VA_ARGS__)
#define UTEST_FE_37(m, x, ...) m(x) UTEST_FE_36(m, __VA_ARGS__)
#define UTEST_FE_38(m, x, ...) m(x) UTEST_FE_37(m, __VA_ARGS__)
#define UTEST_FE_39(m, x, ...) m(x) UTEST_FE_38(m, __VA_ARGS__)
#define UTEST_FE_40(m, x, ...) m(x) UTEST_FE_39(m, __VA_ARGS__)
#define UTEST_FE_41(m, x, ...) m(x) UTEST_FE_40(m, __VA_ARGS__)
#define UTEST_FE_42(m, x, ...) m(x) UTEST_FE_41(m, __VA_ARGS__)
#define UTEST_FE_43(m, x, ...) m(x) UTEST_FE_42(m, __VA_ARGS__)
#define UTEST_FE_44(m, x, ...) m(x) UTEST_FE_43(m, __VA_ARGS__)
#define UTEST_FE_45(m, x, ...) m(x) UTEST_FE_44(m, __VA_ARGS__)
#define UTEST_FE_46(m, x, ...) m(x) UTEST_FE_45(m, __VA_ARGS__)
#define UTEST_FE_47(m, x, ...) m(x) UTEST_FE_46(m, __VA_ARGS__)
#define UTEST_FE_48(m, x, ...) m(x) UTEST_FE_47(m, __VA_ARGS__)
#define UTEST_GET_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17,  \
                   _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32,  \
                   _33, _34, _35, _36, _37, _38, _39, _40, _41, _42, _43, _44, _45, _46, _47,  \
                   _48, NAME, ...)                                                             \
    NAME
#define UTEST_FOREACH_(m, ...)                                                                 \
    UTEST_GET_(__VA_ARGS__, UTEST_FE_48, UTEST_FE_47, UTEST_FE_46, UTEST_FE_45, UTEST_FE_44,   \
               UTEST_FE_43, UTEST_FE_42, UTEST_FE_41, UTEST_FE_40, UTEST_FE_39, UTEST_FE_38,   \
               UTEST_FE_37, UTEST_FE_36, UTEST_FE_35, UTEST_FE_34, UTEST_FE_33, UTEST_FE_32,   \
               UTEST_FE_31, UTEST_FE_30, UTEST_FE_29, UTEST_FE_28, UTEST_FE_27, UTEST_FE_26,   \
               UTEST_FE_25, UTEST_FE_24, UTEST_FE_23, UTEST_FE_22, UTEST_FE_21, UTEST_FE_20,   \
               UTEST_FE_19, UTEST_FE_18, UTEST_FE_17, UTEST_FE_16, UTEST_FE_15, UTEST_FE_14,   \
               UTEST_FE_13, UTEST_FE_12, UTEST_FE_11, UTEST_FE_10, UTEST_FE_9, UTEST_FE_8,     \
               UTEST_FE_7, UTEST_FE_6, UTEST_FE_5, UTEST_FE_4, UTEST_FE_3, UTEST_FE_2,         \
               UTEST_FE_1)(m, __VA_ARGS__)
#define UTEST_MAIN_IMPL_(...)                                                                  \
    int main(int argc, char **argv)                                                            \
    {                                                                                          \
        static const utest_case cases[] = {UTEST_FOREACH_(UTEST_ENTRY_, __VA_ARGS__)};         \
        return utest_run_(cases, (int)(sizeof cases / sizeof cases[0]), argc, argv);           \
    }

#endif /* OSSA_UTEST_H */
