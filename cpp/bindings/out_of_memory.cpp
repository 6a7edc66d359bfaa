// Out of memory in the WASM build, and every other C++ throw, which in this module only
// libc++ makes for an allocation it cannot make (bad_alloc, length_error,
// bad_array_new_length): each becomes a JS Error.
//
// The code is compiled with -fwasm-exceptions, so every frame between the failed
// allocation and the JS caller has a cleanup landing pad, and the JS Error unwinds through
// them as a foreign exception: destructors run and every vector the call had allocated is
// freed. No C++ exception runtime is linked (no catch clause exists, so none is needed):
// the two entry points the compiler emits for a throw expression are defined here.
#include <emscripten/emscripten.h>

#include <cstdlib>
#include <new>

EM_JS(void, throwOutOfMemory, (size_t size), {
  throw new Error("out of WebAssembly memory" + (size ? " allocating " + (size >>> 0) + " bytes" : ""));
});

// Not inlined: LLVM would otherwise fuse malloc and a following memset into a calloc that
// LTO has already dropped from the link.
__attribute__((noinline)) void* operator new(size_t size) {
  if (void* p = std::malloc(size ? size : 1)) return p;
  throwOutOfMemory(size);
  __builtin_unreachable();
}
void* operator new[](size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }

extern "C" {
// One exception object at a time at most: it is destroyed before the JS Error is thrown.
void* __cxa_allocate_exception(size_t) noexcept {
  alignas(16) static unsigned char object[64];
  return object;
}
[[noreturn]] void __cxa_throw(void* object, void*, void (*destroy)(void*)) {
  if (destroy) destroy(object);
  throwOutOfMemory(0);
  __builtin_unreachable();
}
}
