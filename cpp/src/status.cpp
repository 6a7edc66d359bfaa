#include "simhash/status.h"

namespace simhash {

const char* describe(Status status) {
  switch (status) {
    case Status::Ok: return "ok";
    case Status::DuplicateId: return "an item with this id is already stored";
    case Status::CorruptData: return "invalid serialized index";
    case Status::InvalidArgument: return "invalid argument";
  }
  return "unknown status";
}

}  // namespace simhash
