#pragma once
// Outcome codes shared by the core and its callers. The core never throws and never
// aborts on bad input: every operation that can fail on data it cannot pre-validate
// reports one of these, and the JS layer turns them into Error objects.
#include <cstdint>

namespace simhash {

enum class Status : uint8_t {
  Ok = 0,
  DuplicateId = 1,    ///< Index::add with an id that is already stored.
  CorruptData = 2     ///< Index::deserialize found malformed or damaged bytes.
};

}  // namespace simhash
