// AddressSanitizer defaults for the fuzz targets (linked into each), so that a replay of a
// saved input reports what the fuzzing run reported.
//
// detect_container_overflow=0: libFuzzer's runtime (libclang_rt.fuzzer) carries its own
// weak instances of std::vector<unsigned char> members, compiled without
// _GLIBCXX_SANITIZE_VECTOR, and the linker may keep those for the whole binary; the core's
// annotated vectors then see an unannotated resize within their capacity reported as a
// container overflow that is not one. Accesses past the allocation are still caught, and
// .ci/sanitize.sh (no libFuzzer) keeps the container checks.
extern "C" const char* __asan_default_options() { return "detect_container_overflow=0"; }
