// The e2e programs' check: EXPECT(cond) prints the failed condition and its line and counts it in
// `failures`, which the program returns as its exit status. (Programs older than this header keep
// copies of their own.)
#pragma once

#include <cstdio>

static int failures = 0;
#define EXPECT(cond)                                                                               \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::printf("FAIL line %d: %s\n", __LINE__, #cond);                                          \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)
