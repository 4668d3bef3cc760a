// Host code that references run_twice (kernels.cpp) without running it: what makes the linker
// extract kernels.o from an archive.
void run_twice(int* data);
void (*volatile keep_run_twice)(int*) = &run_twice;
