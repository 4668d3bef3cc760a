#include "fill_kernel.hpp"

void fill_user1(int* data) {
  fill(data, 1);
  fill_lambda(data);
}
