// clang-format off
#include "kernel_entry.hpp"

int broken() { return 1 }
