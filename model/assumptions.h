#pragma once
// Named assumptions and profiles. An assumption is a statement no seed or public source settles;
// the lowering guards the constraints it adds with its ID, so a proof can report exactly which
// assumptions it rested on (the unsat core). model/SEMANTICS.md documents each one.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace syncproof::model {

enum class AssumptionId : uint8_t {
  WaveEndStoresInGl2,   // A-WAVE-END-STORES-IN-GL2
  IdleDrainsWrites,     // A-IDLE-DRAINS-WRITES
  GcrOuterFirst,        // A-GCR-OUTER-FIRST
  BopFifo,              // A-BOP-FIFO
  BopWriteAfterOwnGcr,  // A-BOP-WRITE-AFTER-OWN-GCR
  StdFenceCoherent,     // A-STD-FENCE-COHERENT
  Signal2xFullFlush,    // A-SIGNAL2X-FULL-FLUSH
  InitialZero,          // A-INITIAL-ZERO
  WaitxFlagsAfterWait,  // A-WAITX-FLAGS-AFTER-WAIT
  Gl2WbBeforeInv,       // A-GL2-WB-BEFORE-INV
  PsFlushWaitsVs,       // A-PS-FLUSH-WAITS-VS
  TimestampNonzero,     // A-TIMESTAMP-NONZERO
  BopValueThroughGl2,   // A-BOP-VALUE-THROUGH-GL2
  RbFillOnAccess,       // A-RB-FILL-ON-ACCESS
  BarrierPal,           // A-BARRIER-PAL
};
inline constexpr int kAssumptionCount = 15;

struct AssumptionDef {
  AssumptionId id;
  std::string_view name;       // stable ID, e.g. "A-WAVE-END-STORES-IN-GL2"
  std::string_view statement;  // one sentence
  bool in_strict;              // default in the strict profile
  bool in_rdna2;               // default in the rdna2 profile
};
std::span<const AssumptionDef> all_assumptions();
const AssumptionDef& assumption(AssumptionId id);
std::optional<AssumptionId> find_assumption(std::string_view name);

enum class Profile : uint8_t { Strict, Rdna2 };
std::optional<Profile> find_profile(std::string_view name);
std::string_view to_string(Profile p);

// The assumption's bit in a mask of assumptions (guards, left-out sets).
inline constexpr uint32_t assumption_bit(AssumptionId a) {
  return 1u << static_cast<int>(a);
}

struct AssumptionSet {
  std::array<bool, kAssumptionCount> on{};
  bool enabled(AssumptionId a) const { return on[static_cast<int>(a)]; }
  void set(AssumptionId a, bool v) { on[static_cast<int>(a)] = v; }
  static AssumptionSet defaults(Profile p);
  bool operator==(const AssumptionSet&) const = default;
};

// Per-console facts (research §2.3). Conservative defaults. `name` is the named target the facts
// came from (model/targets.h), `changed` whether a `target KEY VALUE` set a fact on top of it.
struct Target {
  bool gl2_rb_coherent = false;  // `target gl2-rb-coherent yes|no`
  std::string name = "conservative";
  bool changed = false;
  bool operator==(const Target&) const = default;
};

// Everything that selects a model variant for one check.
struct ModelConfig {
  Profile profile = Profile::Rdna2;
  AssumptionSet assumptions = AssumptionSet::defaults(Profile::Rdna2);
  Target target;
  bool operator==(const ModelConfig&) const = default;  // the same lowering of a case
};

}  // namespace syncproof::model
