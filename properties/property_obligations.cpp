// A case's obligations property by property, from one set of tables (properties/obligation.h).
#include <memory>

#include "properties/obligation.h"

namespace syncproof::properties {

using namespace model;

PropertyObligations::PropertyObligations(const LoweredProgram& p,
                                         const std::vector<Property>& props)
    : p_(p), props_(props), tables_(std::make_unique<ObligationTables>(p)) {
  for (size_t i = 0; i < props.size(); ++i)
    if (props[i].kind != PropertyKind::DeadlockFree) last_ = i;
}

Obligations PropertyObligations::of(size_t i) {
  if (!tables_) tables_ = std::make_unique<ObligationTables>(p_);  // asked again after the last
  Obligations out = obligations_for(p_, props_.at(i), false, tables_.get());
  if (i >= last_) tables_.reset();
  return out;
}

}  // namespace syncproof::properties
