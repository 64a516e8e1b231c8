#pragma once
// Internals of the lowering (model/lower*.cpp). Not part of the model's interface.
#include <array>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/events.h"

namespace syncproof::model::detail {

// Categories of "earlier work" a sync can wait for. A frontier event is >= every end event of
// its category so far; frontiers are chained so each end is referenced once (linear encoding).
// The last six are what a standard barrier's SYNC_BEFORE scopes wait for (lower_barrier.cpp):
// the render back-ends, the shader stores of each stage landing, index fetches, and earlier
// barriers completing (for a standard Signal).
enum class Cat : uint8_t {
  AllWork,
  Vs,
  Ps,
  Cs,
  Arrivals,
  MeDma,
  PfpDma,
  BopOps,
  Rb,
  VsStores,
  PsStores,
  CsStores,
  IndexReads,
  Barriers
};
inline constexpr int kCatCount = 14;

// Later work a standard barrier's SYNC_AFTER holds (lower_barrier.cpp): the waves of each
// shader stage, the render back-ends' colour and depth accesses, index and indirect-argument
// fetches, CP DMA copies.
enum class Gate : uint8_t { Vs, Ps, Cs, Color, Depth, Index, Indirect, Copy };
inline constexpr int kGateCount = 8;

// A split barrier's BEGIN half waiting for its END (lower_barrier.cpp).
struct OpenSplit {
  std::vector<EventId> contract;  // its cache work (and release point): the END waits for these
  EventId pal_token = kNoEvent;   // A-BARRIER-PAL: the bottom-of-pipe release the END waits for
  uint32_t pal_acquire = 0;       // A-BARRIER-PAL: the acquire flags the END runs
};

struct RbWrite {  // a draw's render-back-end or stream-out write, for *_COHERENCY stalls
  EventId done;
  AccessKind kind;
  uint64_t lo, hi;  // bytes [lo, hi)
};

struct QueueState {
  EventId last_pfp = kNoEvent, last_me = kNoEvent, last_host = kNoEvent;
  EventId gate = kNoEvent;          // queue-level wait: the next command starts after it
  std::vector<EventId> pfp_gates;   // the PFP's next step waits for these (PFP_SYNC_ME etc.)
  EventId last_bop_end = kNoEvent;  // for A-BOP-FIFO
  std::array<std::vector<EventId>, kCatCount> pending{};
  std::array<EventId, kCatCount> frontier{};
  std::vector<RbWrite> rb_writes;
  std::map<uint32_t, EventId> last_rb_write;  // resource -> arrival of the last RB write
  std::array<EventId, kGateCount> gates{};    // standard barriers holding later work
  std::map<uint64_t, OpenSplit> open_splits;  // split barriers begun, by resource
  QueueState() { frontier.fill(kNoEvent), gates.fill(kNoEvent); }
};

struct ValueWriteRec {
  EventId ev;
  uint64_t address;
  unsigned bytes;  // 4 or 8
  uint64_t value;
  WriteValueSource source;
};
struct SignalRec {
  EventId ev;
  uint32_t fence;
  uint64_t value;
};

struct GcrOp {
  Level level;
  bool inv, wb;
  Coverage cov;
  std::string flag;
};

class Lowerer {
 public:
  Lowerer(const Case& c, const ModelConfig& cfg, LoweredProgram& out);
  // The commands' events, orders and accesses; then what the waits read (model::StagedLowering
  // calls them in turn).
  void lower_commands();
  void analyse_waits() { resolve_waits(); }

 private:
  // events and constraints
  EventId ev(EventKind k, std::string what);
  void order(EventId a, EventId b, Rule r, Guard g = {});
  void after_all(const std::vector<EventId>& as, EventId b, Rule r, Guard g = {});
  EventId frontier(Cat c, Rule r);
  void add_end(Cat c, EventId e) { qs().pending[static_cast<int>(c)].push_back(e); }
  EventId cache_op(Level l, bool inv, bool wb, Coverage cov, std::string flag);
  // Marks the operations made since index `first` as existing only under assumption `a`.
  void mark_assumed(size_t first, AssumptionId a);

  // command lowering (lower.cpp / lower_sync.cpp)
  void lower_command(const Command& cmd);
  void begin_cp_step();
  EventId pfp_step();
  EventId me_step(std::string what);
  struct TopResult {
    std::vector<EventId> tail;       // the ME resumes after all of these
    std::vector<EventId> pfp_after;  // the PFP resumes after these
  };
  TopResult top_sequence(const SyncFields& f, const ControlFlags& cf, const SyncRange& r,
                         std::vector<EventId> tail);
  std::vector<EventId> full_flush_ops(EventId after);
  std::vector<EventId> full_invalidate_ops(EventId after);
  void lower_work(const WorkCmd& w);
  void lower_access(const Access& a, const WorkCmd& w, EventId lo, EventId hi, EventId stage_end);
  void lower_top(const SyncCmd& s);
  void lower_bop_sync(const SyncCmd& s);
  void lower_bop_write(const BopWriteCmd& w);
  void lower_wait_value(const WaitValueCmd& w);
  void lower_signal(const SignalCmd& s);
  void lower_wait_fence(const WaitFenceCmd& w);
  void lower_host(const Command& cmd);
  // standard barriers (lower_barrier.cpp)
  void lower_barrier(const BarrierCmd& b);
  void gate(Gate g, EventId e);  // `e` (later work) waits for the barriers holding `g`
  void gate_access(const Access& a, EventId e);
  std::vector<EventId> barrier_release(const BarrierCmd& b, const EnhancedBarrier& e, EventId r);
  void barrier_hold(const EnhancedBarrier& e, EventId done);
  EventId pal_release(const EnhancedBarrier& e, EventId processed, bool split);
  void pal_acquire(uint32_t acquire, std::vector<EventId> after);
  std::vector<EventId> emit_gcr(const std::vector<GcrOp>& ops, const std::vector<EventId>& after,
                                Rule r, const ControlFlags& cf);
  std::vector<EventId> pipelined_bop_ops(const SyncFields& f, const SyncRange& r,
                                         std::vector<EventId> after, const ControlFlags& cf);
  EventId bop_start();
  void finish_bop(EventId start, const std::vector<EventId>& ops);
  void add_wait(EventId done, bool fence, uint32_t object, uint64_t value, Comparison cmp,
                Rule rule, std::optional<uint64_t> address = std::nullopt, unsigned bytes = 8);
  void resolve_waits();  // lower_waits.cpp, with path_guards
  // The guards (bit per AssumptionId) on a path of orders a ~> b using as few guarded orders as
  // possible, or nothing when no path exists (built on first use, once all orders are known).
  std::optional<uint32_t> path_guards(EventId a, EventId b);
  // By event: the indices of the orders leaving it, order_out_[order_start_[e]] up to
  // order_out_[order_start_[e + 1]] (one array: a vector per event was 332,000 heap blocks a
  // lowering at 50,000 commands).
  std::vector<uint32_t> order_start_, order_out_;
  // event -> place in a topological order of the orders (UINT32_MAX: on or after a cycle). An
  // event placed after b cannot be on a path to b, so a search for b never looks past b's place.
  std::vector<uint32_t> topo_;
  std::vector<uint32_t> path_cost_, path_via_;  // path_guards' scratch, all unset between calls
  // path_guards' answers: every wait on a fence asks about the same consecutive signals.
  std::map<std::pair<EventId, EventId>, std::optional<uint32_t>> path_memo_;
  // The events' texts, one of each (Event::text).
  std::unordered_map<std::string, std::shared_ptr<const std::string>> texts_;

  QueueState& qs() { return qstate_[q_]; }
  LoweredCommand& lc() { return out_.commands[q_][cmd_]; }
  bool graphics() const { return c_.queues[q_].type == QueueType::Graphics; }

  const Case& c_;
  const ModelConfig& cfg_;
  LoweredProgram& out_;
  std::vector<QueueState> qstate_;
  std::vector<ValueWriteRec> value_writes_;
  std::vector<SignalRec> signals_;
  struct PendingWait {
    size_t rule_index;
    std::optional<uint64_t> address;  // label waits
    unsigned bytes = 8;               // label waits: 4 or 8
  };
  std::vector<PendingWait> pending_waits_;
  uint32_t q_ = 0, cmd_ = 0;
};

// Paths and coverage (lower_paths.cpp)
Path read_path(AccessKind k, Plane p);
Path write_path(AccessKind k, Plane p);
bool has_meta_plane(AccessKind k, bool write);
bool is_rb_access(AccessKind k);
// The lines of `line` bytes a RANGE (margin false) or MARGIN operation surely acts on.
Coverage coverage_for_range(const SyncRange& r, bool margin, uint64_t line);
std::vector<GcrOp> gcr_ops(const SyncFields& f, const SyncRange& r);
int gcr_tier(Level l);  // 0 = outermost (GL2), 1 = GL1/M$, 2 = L0s

}  // namespace syncproof::model::detail
