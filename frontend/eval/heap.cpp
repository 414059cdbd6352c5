#include "frontend/eval/heap.h"

namespace fbc::star {

Heap::~Heap() {
  for (Object *o : destroy_)
    o->~Object();
}

} // namespace fbc::star
