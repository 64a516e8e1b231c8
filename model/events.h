#pragma once
// The lowered program: hardware-level events with timing constraints, cache operations and memory
// accesses. Produced once by model/lower.cpp from a Case; consumed by the SMT encoder (encode/),
// the property obligations and monitors (properties/) and the concrete executor (exec/). Plain
// data: an execution is an assignment of integer times to events satisfying the constraints.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/assumptions.h"
#include "model/case.h"
#include "model/rules.h"
#include "model/wait_value.h"

namespace syncproof::model {

using EventId = uint32_t;
inline constexpr EventId kNoEvent = UINT32_MAX;

// Cache levels and the memory behind them (research §2.1).
enum class Level : uint8_t {
  Icache,  // I$  (GLI), shader instruction fetch
  Kcache,  // K$  (GLK), scalar loads
  Gl0,     // GL0 / V$ (GLV), vector loads; write-through
  Gl1,     // GL1, read-only for shaders (stores bypass it)
  Gl2,     // GL2, write-back; the GPU's coherence point
  Mcache,  // M$  (GLM), metadata; read-only, non-coherent
  Cb,      // colour-block data cache (per RB), write-back
  CbMeta,  // colour-block metadata cache, write-back
  Db,      // depth-block data cache, write-back
  DbMeta,  // depth-block metadata (HTILE) cache, write-back
  So,      // stream-out write path, held until STREAMOUT_FLUSH
  Mem,     // memory (what the host sees)
};
inline constexpr int kLevelCount = 12;
std::string_view to_string(Level l);

enum class EventKind : uint8_t {
  PfpStep,     // the PFP has processed a command (graphics queues)
  MeStep,      // the ME (the MEC on compute queues) has processed a command
  HostStep,    // the CPU has executed a host-queue command
  StageStart,  // first wave of a stage of a work item starts
  StageEnd,    // last wave of a stage of a work item has ended
  RbDone,      // the render back-ends have finished a draw (its writes are in CB/DB caches)
  DmaStart,    // a CP DMA transfer starts
  DmaDone,     // a CP DMA transfer has completed
  Access,      // a memory access (read, or a write issued)
  Arrive,      // a write's data has reached its first cache level
  SyncStep,    // a blocking step of a sync (CPDMA wait, partial flush, PFP sync, idle, stall)
  BopStart,    // the pipelined bottom-of-pipe part of a command begins
  CacheOp,     // a cache action on one level
  ValueWrite,  // a bottom-of-pipe value write lands in its label
  Signal,      // a fence takes a value
  WaitDone,    // a wait has been satisfied
};
std::string_view to_string(EventKind k);

struct Event {
  Event(EventKind k, uint32_t q, uint32_t c, std::shared_ptr<const std::string> w)
      : kind(k), queue(q), cmd(c), text(std::move(w)) {}
  Event(EventKind k, uint32_t q, uint32_t c, std::string w)
      : Event(k, q, c, std::make_shared<const std::string>(std::move(w))) {}
  EventKind kind;
  uint32_t queue;  // index into Case::queues
  uint32_t cmd;    // index into the queue's commands
  // Short description for traces, e.g. "CS waves end", "GL1 invalidate". Events that say the
  // same share it: a frame's hundreds of thousands of events say a few hundred things, and a
  // string each was a twelfth of the SMT engine's peak at 50,000 commands.
  std::shared_ptr<const std::string> text;
  const std::string& what() const { return *text; }
};

// A constraint is active when its guard holds: no assumption, or assumption `id` has value `when`.
struct Guard {
  std::optional<AssumptionId> id;
  bool when = true;
};

// t(before) < t(after). Every constraint is strict, so an execution is an interleaving of events
// (no two events are ever forced to happen at once).
struct Order {
  EventId before, after;
  Guard guard;
  Rule rule;
};

// A wait completes at a poll whose value satisfies it (model/wait_value.h). In the common,
// monotone case that is "after one of its candidates, unless the initial value may satisfy it";
// `word` holds what the exact rule needs.
struct WaitRule {
  EventId wait;
  std::vector<EventId> candidates;  // writes/signals after which a poll may pass (may)
  bool zero_satisfies = false;      // a poll of the initial word (all 0) passes
  bool is_fence = false;
  uint32_t object = 0;  // fence or label index
  uint64_t value = 0;
  Comparison cmp = Comparison::GreaterEqual;  // fences: GreaterEqual
  Rule rule;
  PolledWord word;  // the polled word: parts, comparison, every writer
  // Writes after which a poll must pass (must). The same list as `candidates` wherever the
  // value of the word is known (WaitValues::known), and then kept once: a frame's waits on one
  // fence each list most of its signals (11 MB at 50,000 commands).
  const std::vector<EventId>& must_candidates() const { return must_same ? candidates : must_list; }
  std::vector<EventId> must_list;  // when not must_same
  bool must_same = false;
  // Under the case's configuration every state but the initial one passes every poll, so the
  // candidate rule is exact (WaitValues::trivially_monotone). Otherwise the engines decide the
  // wait from `word`.
  bool monotone = true;
  // model::determinate under the configuration: the first poll and each writer decide the wait.
  // The deadlock rules use the candidate rule only for a wait both monotone and determinate
  // (deadlock_monotone()); safety's candidate rule is exact for any monotone wait.
  bool determinate = true;
  bool deadlock_monotone() const { return monotone && determinate; }
  // The value assumptions (bit per AssumptionId: A-INITIAL-ZERO, A-TIMESTAMP-NONZERO) whose
  // truth changes the candidates or `monotone` (the initial poll aside: zero_satisfies).
  uint32_t value_depends = 0;
  // The value assumptions (bit as above) whose truth changes deadlock_monotone(). They reach the
  // lowering only here (resolve_waits), so a lowering with one of them flipped has the same waits
  // with these flipped: properties::deadlock_assumptions counts its hidden waits without lowering
  // again (tests/tools/test_value_flips.cpp compares it with the lowering).
  uint32_t deadlock_flips = 0;
  // When `monotone` holds only because the writers land in one order in every execution
  // (model::chain_monotone): the assumptions guarding the orders that chain them (bit per
  // AssumptionId). 0 when no order is needed.
  uint32_t chain_guards = 0;
  // The writers land in event-id order in every execution of the configuration (through orders
  // guarded by chain_guards): the chain model::chain_monotone looks along.
  bool chained = false;
  // The poll before anything landed, under the configuration (an unknown initial value without
  // A-INITIAL-ZERO), and whether it could pass if nothing were known of the initial value.
  PollOutcome initial;
  bool initial_unknown_may = true;
  // What the candidate rule of a monotone wait rests on (bit per AssumptionId): A-INITIAL-ZERO
  // keeping the initial value from passing (unless no value could), the value assumptions that
  // make it monotone or narrow its candidates, and those that chain its writers. Without one of
  // them the wait is free to complete at any time (an over-approximation).
  uint32_t rests() const {
    uint32_t r = chain_guards | value_depends;
    if (initial_unknown_may) r |= 1u << static_cast<int>(AssumptionId::InitialZero);
    return r;
  }
};

// Which lines of memory a cache operation acts on, in 64-byte units (SEMANTICS.md §Ranges).
// Range: every unit in lo..hi. Margin: the two lines at the ends of lo..hi, each `span` units
// long (a range's first and last line: 1 unit for I$'s 64-byte lines, 2 for GL1/GL2's 128).
struct Coverage {
  enum class Kind : uint8_t { All, Range, Margin, Nothing } kind = Kind::All;
  uint64_t lo = 0, hi = 0;
  uint8_t span = 1;
  bool covers(uint64_t unit) const {
    switch (kind) {
      case Kind::All:
        return true;
      case Kind::Range:
        return lo <= unit && unit <= hi;
      case Kind::Margin:
        return (lo <= unit && unit - lo < span) || (unit <= hi && hi - unit < span);
      case Kind::Nothing:
        return false;
    }
    return false;
  }
  // Whether every unit of lo..hi (inclusive, lo <= hi) is covered.
  bool covers_all(uint64_t from, uint64_t to) const {
    switch (kind) {
      case Kind::All:
        return true;
      case Kind::Range:
        return lo <= from && to <= hi;
      case Kind::Margin: {
        const uint64_t first_end = lo + span - 1, last_start = hi - (span - 1);
        if (first_end + 1 >= last_start) return lo <= from && to <= hi;  // the lines touch
        return (lo <= from && to <= first_end) || (last_start <= from && to <= hi);
      }
      case Kind::Nothing:
        return false;
    }
    return false;
  }
};
inline constexpr uint64_t kUnitBytes = 64;
// Cache line sizes on gfx10.3 (research §2.1: Linux drivers/gpu/drm/amd/amdkfd/kfd_crat.c): the
// instruction cache and K$ 64 bytes, GL0, GL1 and GL2 128 bytes. A ranged cache operation's
// range is in 256-byte units (COHER_BASE/COHER_SIZE, research §1.3), widened outward by PAL.
inline constexpr uint64_t kLineBytes = 128;  // GL0, GL1, GL2
inline constexpr uint64_t kIcacheLineBytes = 64;
inline constexpr uint64_t kCoherBytes = 256;
// The 64-byte units of the GL2 lines that hold bytes lo..hi (inclusive).
inline uint64_t gl2_first_unit(uint64_t byte_lo) {
  return byte_lo / kLineBytes * (kLineBytes / kUnitBytes);
}
inline uint64_t gl2_last_unit(uint64_t byte_hi) {
  return (byte_hi / kLineBytes + 1) * (kLineBytes / kUnitBytes) - 1;
}

struct CacheOp {
  EventId ev;
  Level level;
  bool invalidate = false;
  bool writeback = false;
  Coverage cov;
  std::string flag;  // the flag that asked for it (full name), or the mechanism, for traces
  // Set when the operation exists only because an assumption says so (the standard fences'
  // flushes and invalidations). The lowering then places it before later events only through
  // orders guarded by that assumption, so a proof that needs the operation lists it
  // (tests/tools/test_assumed_ops.cpp checks this for every such operation).
  std::optional<AssumptionId> exists_under;
};

// A path from a cache level outwards to memory, innermost first.
struct Path {
  std::array<Level, 6> levels{};
  uint8_t size = 0;
  void push(Level l) { levels[size++] = l; }
  Level operator[](size_t i) const { return levels[i]; }
  int index_of(Level l) const {
    for (int i = 0; i < size; ++i)
      if (levels[i] == l) return i;
    return -1;
  }
};

enum class Plane : uint8_t { Data, Meta };

inline constexpr uint32_t kNoObject = UINT32_MAX;

struct MemAccess {
  EventId ev;                 // the access (for writes: issued)
  EventId arrive = kNoEvent;  // writes: data reached path[0]
  uint32_t queue, cmd;
  uint32_t resource;  // index into Case::resources, or kNoObject (a label word)
  uint64_t lo, hi;    // 64-byte units touched, inclusive
  uint64_t blo, bhi;  // bytes touched, inclusive
  bool write;
  AccessKind kind;
  Stage stage;
  Plane plane;
  bool rb = false;  // issued by the render back-ends (for the GL2 RB/TC split)
  Path path;        // reads: where the data comes from, innermost first; writes: where it goes
  SrcLoc loc;
  uint32_t label = kNoObject;  // AccessKind::Label: index into Case::labels (kNoObject: a number)
  // One of two possible paths of the same write, taken only when this assumption is off (the
  // bottom-of-pipe value written straight to memory, R-BOP-VALUE-PATH): the property's
  // obligations on it hold vacuously under the assumption, so a proof that skips them lists it.
  std::optional<AssumptionId> only_without = std::nullopt;
};

// What an access touches, for traces: the resource or label name, or the address.
std::string object_name(const Case& c, const MemAccess& m);

// What a command became; events are listed in creation order.
struct LoweredCommand {
  uint32_t queue, cmd;
  EventId pfp = kNoEvent;          // graphics queues
  EventId me = kNoEvent;           // ME/MEC step (GPU queues) or host step
  std::vector<EventId> events;     // every event of the command
  std::vector<uint32_t> accesses;  // indices into LoweredProgram::accesses
};

struct LoweredProgram {
  const Case* source = nullptr;
  ModelConfig config;
  std::vector<Event> events;
  std::vector<Order> orders;
  std::vector<WaitRule> waits;
  std::vector<CacheOp> cache_ops;
  std::vector<MemAccess> accesses;
  std::vector<std::vector<LoweredCommand>> commands;  // [queue][cmd]

  const LoweredCommand& command(uint32_t q, uint32_t c) const { return commands[q][c]; }
};

// Whether a sync's SyncFlags make a cache operation when lowered: a GCR operation (any cache
// invalidation or write-back flag) and, at the top of the pipe (SyncTopOfPipeX, WaitX's flags),
// COLOR/DEPTH_BLOCK_INVALIDATE, at the bottom (SyncBottomOfPipeX, a value write's and Signal2X's
// flags) the CB/DB data and metadata flushes and STREAMOUT_FLUSH. In step with the lowering's
// top_sequence and pipelined_bop_ops (tests/model/test_lower.cpp checks every sync of the
// library); the linter uses it to reject an `ordered` property on a sync with nothing to order.
bool makes_cache_operations(const SyncFields& f, bool top_of_pipe);

// A topological order of the program's orders, by event: its place (Kahn's algorithm, the first
// event ready placed first). UINT32_MAX for what a cycle of orders holds up (an event on the
// cycle, which no execution completes, and every event after one). An order goes up in it
// between two placed events, so a walk along orders to a placed event never needs to pass its
// place, and one from an event held up reaches only events held up.
std::vector<uint32_t> order_positions(const LoweredProgram& p);

// Lower a (lint-clean) case under a configuration. Never fails on a lint-clean case.
LoweredProgram lower(const Case& c, const ModelConfig& config);
namespace detail {
class Lowerer;
}
// lower(c, config) in two steps, for a caller that caps a case's size before the quadratic part
// and then checks it: the commands' events, orders and accesses when made (events()), then what
// the waits read (finish(), once). So the case is lowered once, not once to count its events and
// again to check it. The case must outlive it (the lowering reads it until finish()).
class StagedLowering {
 public:
  StagedLowering(const Case& c, const ModelConfig& config);
  ~StagedLowering();
  StagedLowering(const StagedLowering&) = delete;
  StagedLowering& operator=(const StagedLowering&) = delete;
  size_t events() const;
  LoweredProgram finish();

 private:
  // The lowering reads the configuration until finish(): a copy, as a caller may pass a
  // temporary (config_for's result).
  ModelConfig config_;
  std::unique_ptr<LoweredProgram> p_;
  std::unique_ptr<detail::Lowerer> lowerer_;
};

// The configuration a case asks for (profile, assume, target), with command-line overrides
// applied on top. Unknown names have been rejected by the linter.
// `target_overrides`: --target values (NAME or KEY=VALUE, model/targets.h), applied in order after
// the case's own target.
ModelConfig config_for(const Case& c, std::optional<Profile> profile_override,
                       const std::vector<std::pair<bool, std::string>>& assume_overrides,
                       const std::vector<std::string>& target_overrides = {});

}  // namespace syncproof::model
