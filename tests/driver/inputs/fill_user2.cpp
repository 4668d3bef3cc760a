#include "fill_kernel.hpp"

void fill_user2(int* data, float* other) {
  fill(data, 2);
  fill(other, 2.0f);
  fill_lambda(data);
}
