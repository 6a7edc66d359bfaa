#pragma once
// Outcome codes shared by the core and its callers. Bad input never makes the core throw
// or abort: every operation that can fail on data it cannot pre-validate reports one of
// these, and the JS layer turns them into Error objects. Running out of memory is the one
// exception: an allocation throws std::bad_alloc (natively) or whatever operator new does
// in the build (cpp/bindings/out_of_memory.cpp in the WASM build).
#include <cstdint>

namespace simhash {

enum class Status : uint8_t {
  Ok = 0,
  DuplicateId = 1,    ///< Index::add with an id that is already stored.
  CorruptData = 2     ///< Index::deserialize or IdfTable::deserialize found malformed or damaged bytes.
};

}  // namespace simhash
