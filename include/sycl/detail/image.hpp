// Device images: the contract between the registration object that syclone++ generates at link
// time and the runtime's kernel registry (src/runtime/kernel_registry.hpp).
//
// syclone++ links the device code of every object of a program (or shared library) per target,
// embeds each linked image in a generated object and registers it from a constructor before
// main (or at dlopen); the destructor unregisters it at exit (or dlclose). The generated file
// includes this header, so the layout below is shared by construction. Keep it plain C data:
// the descriptor is written once by the compiler and read by every later runtime version, so
// new fields go at the end and bump SYCLONE_IMAGE_DESCRIPTOR_VERSION.
#pragma once

#include <sycl/detail/config.hpp>

#define SYCLONE_IMAGE_DESCRIPTOR_VERSION 3

extern "C" {

struct syclone_image_descriptor {
  uint32_t version;                // SYCLONE_IMAGE_DESCRIPTOR_VERSION of the writer
  uint32_t kernel_count;           // entries of kernel_names
  const char* target;              // device target: "nvptx64" (later "spirv64")
  const char* format;              // how data is encoded: "llvm-bc" (LLVM bitcode)
  const unsigned char* data;       // the linked device code of the whole program or library
  uint64_t size;                   // bytes at data
  const char* const* kernel_names; // __builtin_sycl_unique_stable_name of each kernel, sorted

  // Version 2. Per entry of kernel_names (same order): the unique stable names of the
  // specialization constants that kernel can read (SYCL 2020 4.11.11), as a null-terminated
  // list, or null where it reads none. Null when no kernel of the image reads any.
  const char* const* const* kernel_spec_constants;

  // Version 3. What a consumer of the image needs beyond kernel names, one record per line
  // ("kernel <name>" for each kernel; for "spirv" images also "spec_constant <name> <SpecId>
  // <offset> <bytes>", "local_memory_argument <kernel> <index>", "sub_group_size <kernel> <n>").
  const char* manifest;
};

// Each image also sits, with its target, format and manifest, in a record of the section
// "syclone_images" of the program or library, so that tools (syclone-spirv extract) find the
// images of a binary without running it. A record, 16-byte aligned, little-endian:
//   char     magic[8]   "SYCLIMG1"
//   uint32_t data_offset  from the record's start to the image, a multiple of 16
//   uint32_t reserved     0
//   uint64_t size         bytes of the image
//   target, format, manifest: nul-terminated strings; padding; the image; padding to 16
#define SYCLONE_IMAGE_SECTION "syclone_images"
#define SYCLONE_IMAGE_RECORD_MAGIC "SYCLIMG1"

// Called by the generated registration object; the descriptor and everything it points to must
// stay valid until the matching unregister call.
SYCLONE_EXPORT void __syclone_register_image(const syclone_image_descriptor* image);
SYCLONE_EXPORT void __syclone_unregister_image(const syclone_image_descriptor* image);

} // extern "C"
