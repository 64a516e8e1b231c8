// The case language's access kinds: what each allows (model/case.h).
#include "model/case.h"

namespace syncproof::model {

bool can_read(AccessKind k) {
  return k != AccessKind::Streamout && k != AccessKind::CopyDst;
}

bool can_write(AccessKind k) {
  switch (k) {
    case AccessKind::Uav:
    case AccessKind::Rt:
    case AccessKind::Depth:
    case AccessKind::Streamout:
    case AccessKind::CopyDst:
    case AccessKind::Host:
      return true;
    default:
      return false;
  }
}

bool shader_kind(AccessKind k) {
  return k == AccessKind::Srv || k == AccessKind::Cbv || k == AccessKind::Uav ||
         k == AccessKind::ShaderCode;
}

Stage fixed_stage(AccessKind k) {
  switch (k) {
    case AccessKind::Vertex:
    case AccessKind::Streamout:
      return Stage::Vs;
    case AccessKind::Index:
    case AccessKind::Indirect:
      return Stage::Cp;
    case AccessKind::Rt:
    case AccessKind::Depth:
      return Stage::Ps;
    case AccessKind::CopySrc:
    case AccessKind::CopyDst:
      return Stage::Dma;
    case AccessKind::Host:
      return Stage::Host;
    default:
      return Stage::Ps;
  }
}

}  // namespace syncproof::model
