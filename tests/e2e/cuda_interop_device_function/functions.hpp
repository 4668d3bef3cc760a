// Declared for main.cpp, defined in functions.cu.
#pragma once

SYCL_EXTERNAL void add_squares(int* p, int n);
SYCL_EXTERNAL int sum_of(const int* p, int n);
