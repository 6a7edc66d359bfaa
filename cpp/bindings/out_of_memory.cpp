// Out of memory in the WASM build. The build does not catch C++ exceptions, so libc++'s
// operator new would abort the whole module on a failed allocation. Instead a failed
// allocation throws a JS Error, which unwinds the WASM stack back to the JS caller: the
// module stays usable, and the core commits its changes only after allocating
// (Index::rebuild, Index::reserveForAdding), so nothing it holds is left half-changed.
#include <emscripten/emscripten.h>

#include <cstdlib>
#include <new>

EM_JS(void, throwOutOfMemory, (size_t size), { throw new Error('out of WebAssembly memory allocating ' + size + ' bytes'); });

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
