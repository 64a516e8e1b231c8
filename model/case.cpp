// Names of the case-file enums (the spellings the case language uses) and the D3D12 comparison.
#include "model/case.h"

namespace syncproof::model {

std::string_view to_string(AccessKind k) {
  switch (k) {
    case AccessKind::Srv:
      return "srv";
    case AccessKind::Cbv:
      return "cbv";
    case AccessKind::Uav:
      return "uav";
    case AccessKind::Vertex:
      return "vertex";
    case AccessKind::Index:
      return "index";
    case AccessKind::Indirect:
      return "indirect";
    case AccessKind::ShaderCode:
      return "shader-code";
    case AccessKind::Rt:
      return "rt";
    case AccessKind::Depth:
      return "depth";
    case AccessKind::CopySrc:
      return "copy-src";
    case AccessKind::CopyDst:
      return "copy-dst";
    case AccessKind::Streamout:
      return "streamout";
    case AccessKind::Host:
      return "host";
    case AccessKind::Label:
      return "label";
  }
  return "?";
}

std::string_view to_string(Stage s) {
  switch (s) {
    case Stage::Vs:
      return "vs";
    case Stage::Ps:
      return "ps";
    case Stage::Cs:
      return "cs";
    case Stage::Cp:
      return "cp";
    case Stage::Dma:
      return "dma";
    case Stage::Host:
      return "host";
  }
  return "?";
}

std::string_view to_string(WorkKind k) {
  switch (k) {
    case WorkKind::Draw:
      return "draw";
    case WorkKind::Dispatch:
      return "dispatch";
    case WorkKind::IndirectDraw:
      return "indirect draw";
    case WorkKind::IndirectDispatch:
      return "indirect dispatch";
    case WorkKind::Copy:
      return "copy";
    case WorkKind::Host:
      return "host";
  }
  return "?";
}

std::string_view to_string(Comparison c) {
  switch (c) {
    case Comparison::Never:
      return "NEVER";
    case Comparison::Less:
      return "LESS";
    case Comparison::Equal:
      return "EQUAL";
    case Comparison::LessEqual:
      return "LESS_EQUAL";
    case Comparison::Greater:
      return "GREATER";
    case Comparison::NotEqual:
      return "NOT_EQUAL";
    case Comparison::GreaterEqual:
      return "GREATER_EQUAL";
    case Comparison::Always:
      return "ALWAYS";
  }
  return "?";
}

// Wait*BitValueX: the wait is satisfied when `memory CMP value` holds (lhs = memory, rhs = value).
bool compare(Comparison c, uint64_t lhs, uint64_t rhs) {
  switch (c) {
    case Comparison::Never:
      return false;
    case Comparison::Less:
      return lhs < rhs;
    case Comparison::Equal:
      return lhs == rhs;
    case Comparison::LessEqual:
      return lhs <= rhs;
    case Comparison::Greater:
      return lhs > rhs;
    case Comparison::NotEqual:
      return lhs != rhs;
    case Comparison::GreaterEqual:
      return lhs >= rhs;
    case Comparison::Always:
      return true;
  }
  return false;
}

std::string_view to_string(PropertyKind k) {
  switch (k) {
    case PropertyKind::Visible:
      return "visible";
    case PropertyKind::Ordered:
      return "ordered";
    case PropertyKind::NoHazards:
      return "no-hazards";
    case PropertyKind::DeadlockFree:
      return "deadlock-free";
  }
  return "?";
}

}  // namespace syncproof::model
