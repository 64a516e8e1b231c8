#pragma once
// A sufficient, solver-free proof of obligations: paths in the "must happen before" graph of the
// lowered program. Every edge is a strict order (model/events.h), and a wait is after X when X is
// before every signal that can satisfy it, so a path a ~> b means t(a) < t(b) in every execution.
// An obligation whose monitor condition follows from such paths is proved without asking the
// solver; everything else goes to the SMT engine. Sound, not complete: it never refutes.
//
// Why a question costs its window, not the program:
// - A wait rule's essential candidates: a candidate reached from an earlier one along orders is
//   reached whenever that one is (with the guards of that path), so only the others are needed.
//   A fence's candidates (every later signal) are usually one essential signal and a chain.
// - A search order: a topological order of the orders and of the edges from each rule's essential
//   candidates to its wait. Every edge a search uses goes forward in it, so a search from a that
//   has passed b's place has decided b, and it never looks past the furthest place it was asked
//   about.
// - A rule caught in a cycle of that graph is usually a wait before some of its candidates (a
//   fence signalled again after the wait let its queue go on). The poll that completes a wait saw
//   a candidate land, so not one the wait is before in every execution: such candidates are
//   dropped from the rule, with the guards of the paths that put them after the wait (found by the
//   searches of the round before; rounds until none is dropped). A rule still in a cycle is not
//   used: fewer paths, never a wrong one.
// - Each event a search reaches keeps the assumptions of the path with the fewest, chosen once all
//   its edges are in (the search runs in the order above): the list is read off, not walked.
// - A question about an event far along the frame (a line mate of the GL2 step, a write many
//   blocks later) is first put to the ME steps of that event's queue (reach_free()): a path with
//   no guard to one of them, chained without guards to the ME step of the event's command, which
//   reaches the event without guards, is the search's own answer (no assumption), found without
//   walking every event in between.
// - A read's line mates are whole groups of writes to the same bytes, one per block of a frame
//   that rewrites a buffer: hundreds. Consecutive writes of a group whose arrivals are linked by
//   a guard-free path answer for each other (linked_mates_clean()): a mate after the GL2
//   operation makes every later linked one after it too, one in memory before the write every
//   earlier linked one down the same path, so each question asks only the first (or last) mate
//   of each chain.
// - quiet()'s questions are about every mate and every GL2 invalidation of the frame: a mate
//   arriving after the read answers for the next write of its group when their arrivals are
//   linked without guards, and an invalidation before the write's arrival for the earlier ones
//   of its queue that reach it (chains). Their guards are those of the path through the
//   neighbour: sufficient, though a search of its own may pick a path with other assumptions
//   (tests/tools/test_exec_cones.cpp compares both).
// A proof's list is sufficient (its paths use no other assumption); minimize() makes a property's
// list irredundant with searches that leave assumptions out. The tests check both against the
// whole-program fixpoint in tests/tools/must_order_reference.h.
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <set>
#include <unordered_map>
#include <vector>

#include "properties/obligation.h"

namespace syncproof::properties {

class MustOrder {
 public:
  // tails: read the essential candidates of a rule whose list is a linked tail of its word's
  // writers off per word (essentials()); false takes each list one candidate at a time, as the
  // tests compare. chains: quiet() answers for a line mate or an invalidation through its
  // neighbour's answer where a path links them (see above); false asks each one, as the tests
  // compare.
  // `memo_bytes`: the searches kept for reuse; past this the memo starts afresh (it only saves
  // work: a search without a budget finds the same whenever it runs). 256 MB was a third of the
  // SMT engine's peak at 50,000 commands and saved no time over 64 MB; 4 MB against 64 MB
  // (December 2026, alternating runs of the 50,000-command frame): the SMT engine 2.90 s against
  // 3.12 s of CPU and 357 against 421 MB peak (1 MB was no different from 4). A fresh search
  // costs its window; the pages a large memo touches once cost more than the searches it saves
  // when, as paths() does, the questions seldom come back to a source. The executor asks quiet()
  // of every obligation again for each set of assumptions its minimization leaves out, and keeps
  // 64 MB (exec/check.cpp).
  static constexpr size_t kDefaultMemoBytes = size_t{4} << 20;
  explicit MustOrder(const model::LoweredProgram& p, bool tails = true, bool chains = true,
                     size_t memo_bytes = kDefaultMemoBytes);

  // Proved: the assumptions guarding the paths found (sufficient, not always needed).
  // nullopt: no proof found.
  std::optional<std::set<model::AssumptionId>> prove(const Obligation& o);
  // The assumptions of the paths of one proof (bit per AssumptionId), or nullopt.
  std::optional<uint32_t> paths(const Obligation& o);
  // Which line mates and render back-end fills of a Fresh obligation (Freshness::mates, fills)
  // surely change nothing, in every execution: a mate that every invalidation of the GL2 step
  // that could carry the data (one not before the write's arrival, nor after the read) precedes
  // or follows its write-back to memory; a fill after the read, or followed by a covering
  // invalidation of the render back-end step before the write's arrival. By paths, as paths();
  // `guards` collects their assumptions, with those of the paths that put an invalidation at
  // which a mate may be dirty before the write's arrival or after the read (without them it could
  // carry the data). The executor leaves them out of its searches.
  struct Quiet {
    std::vector<char> mates, fills;  // by index in Freshness::mates / fills
    uint32_t guards = 0;
    // By mate / fill: the assumptions its own proof used (for those set above).
    std::vector<uint32_t> mate_guards, fill_guards;
    // The same with the assumptions in `dropped` left out: those whose proofs used none of them.
    Quiet without(uint32_t dropped) const;
  };
  Quiet quiet(const Obligation& o);
  // One property's list from the proofs of its obligations `obs` (masks: their paths' lists, as
  // from paths()): each assumption is dropped, in AssumptionId order, when every obligation
  // whose list holds it still has a proof without it and without those dropped before; the
  // masks become those proofs' lists. The union returned is sufficient, and irredundant for this
  // search: without any one of it, some obligation has no proof (unless the searches without
  // assumptions ran out of their budget, linear in the program: then a list may keep one).
  uint32_t minimize(const std::vector<const Obligation*>& obs, std::vector<uint32_t>* masks);

  // How often a question was answered by the completion order alone, how many searches ran, and
  // how many events they took from their queues in all.
  uint64_t by_position() const { return by_position_; }
  uint64_t searches() const { return searches_; }
  uint64_t pops() const { return pops_; }

 private:
  static constexpr uint32_t kNever = UINT32_MAX;      // position of an event that never completes
  static constexpr uint32_t kUnreached = UINT32_MAX;  // in Reach::mask
  // What the searches without some assumptions may take from their queues in all, per event of
  // the program (so minimizing lists costs at most linear time); past it they find nothing more
  // and a list keeps what it has. The rounds of build() share such a budget too.
  static constexpr uint64_t kSparePops = 64;
  static uint32_t bit(model::AssumptionId a) { return uint32_t{1} << static_cast<int>(a); }
  // Whether guards `a` make a better path than the best one found so far, `b` (kUnreached: none).
  static bool fewer(uint32_t a, uint32_t b);
  // The program's orders by earlier event, every one of them: the searches in without_ share
  // them and pass over those under an assumption they leave out (out_mask_ & forbidden_).
  struct Edges {
    std::vector<uint32_t> start;        // event -> its entries in after, mask
    std::vector<model::EventId> after;  // the order's later event
    std::vector<uint32_t> mask;         // the order's guard (bit per AssumptionId)
  };
  static std::shared_ptr<const Edges> edges_of(const model::LoweredProgram& p);
  // The completion positions (the definition says which), shared with the searches in without_.
  static std::shared_ptr<const std::vector<uint32_t>> positions_of(const model::LoweredProgram& p);
  // The search that uses no order guarded by, and no wait rule resting on, an assumption in
  // `forbidden` (bit per AssumptionId), over the whole program's `positions` and `edges`.
  MustOrder(const model::LoweredProgram& p, uint32_t forbidden,
            std::shared_ptr<const std::vector<uint32_t>> positions,
            std::shared_ptr<const Edges> edges, size_t memo_bytes, uint64_t* budget, bool tails);
  void build();
  // The search without `forbidden`, made when first asked for (nullptr: too many already).
  MustOrder* without(uint32_t forbidden);
  // One search from a source, as far as it has gone; indexed by search position minus the
  // source's.
  struct Reach {
    uint32_t base = 0;
    std::vector<uint32_t> mask;  // assumptions of the best path found (kUnreached: none)
    // The queued positions, a bit each. Every edge goes forward in search order, so a position
    // is queued only past the one being taken: the least one queued is found by scanning on
    // from there (`next`: none below it), not kept in a heap.
    std::vector<uint64_t> queued;
    uint32_t next = 0;
  };
  // No search from a can reach b: b completes, and no later than a (see positions_of).
  bool out_of_reach(model::EventId a, model::EventId b) {
    const bool out = pos_[b] != kNever && pos_[b] <= pos_[a];
    by_position_ += out;
    return out;
  }
  // The order build() sorts a rule's candidates in, and essentials() a word's writers: by
  // completion position, then event.
  bool completes_before(model::EventId a, model::EventId b) const {
    return std::pair(pos_[a], a) < std::pair(pos_[b], b);
  }
  void essentials(const model::LoweredProgram& p);
  void search_order(const model::LoweredProgram& p);
  Reach& from(model::EventId src);
  // Searches on until everything up to `until`'s place is decided.
  void advance(Reach& r, model::EventId until);
  bool reaches(model::EventId a, model::EventId b);
  // Whether a path from a to b with no guard (and so no assumption) exists, found through the
  // queue steps of b's queue (hubs below) without a search as far as b; false: not found this
  // way (there may still be one). Only in the search without a budget (see the definition).
  bool reach_free(model::EventId a, model::EventId b);
  // Whether a ~> b with no assumption, by the search itself.
  bool free_path(model::EventId a, model::EventId b);
  void build_hubs();
  // The assumptions of the path found from a to b (reaches(a, b) must hold).
  uint32_t guards(model::EventId a, model::EventId b);
  bool covers_all(uint32_t op, uint64_t lo, uint64_t hi) const;
  // A step's operations as (completion position, operation), sorted.
  const std::vector<std::pair<uint32_t, uint32_t>>& ops_by_pos(const OpList& ops);
  // A chain of covering operations through `steps`, each after the previous point, starting
  // after `start`; returns the last point (start itself when there are no steps). `fresh`: the
  // freshness the steps are of, whose GL2 step takes only an invalidation that no line mate
  // holds shut (gl2_open); `extra` collects the assumptions that used (bit per AssumptionId).
  std::optional<model::EventId> chain(model::EventId start, const std::vector<Step>& steps,
                                      size_t j, uint64_t lo, uint64_t hi, model::EventId target,
                                      std::vector<model::EventId>* points,
                                      const Freshness* fresh = nullptr, uint32_t* extra = nullptr);
  // Whether operation `op` (at event `ev`) of the GL2 step of `f` surely carries the data on
  // units lo..hi: a write-back+invalidate under A-GL2-WB-BEFORE-INV, or every mate touching
  // those lines surely not yet in GL2 (after the operation) or surely in memory before it. The
  // guards of the paths that say so go to `bits`.
  bool gl2_open(const Freshness& f, uint32_t op, uint64_t lo, uint64_t hi, uint32_t* bits);
  // One mate of gl2_open's question, asked on its own (at event `op_ev`).
  bool mate_clean(const Freshness& f, const LineMate& m, model::EventId op_ev, uint64_t lo,
                  uint64_t hi, uint32_t* bits);
  // gl2_open's mates in the search without a budget, most of them through their neighbours.
  bool linked_mates_clean(const Freshness& f, uint32_t op, uint64_t lo, uint64_t hi,
                          uint32_t* bits);
  void build_mate_links();

  const model::LoweredProgram& p_;
  uint32_t forbidden_ = 0;
  bool tails_ = true, chains_ = true;
  size_t memo_limit_;
  std::map<uint32_t, std::unique_ptr<MustOrder>> without_;
  uint64_t* budget_ = nullptr;  // pops left to this search (nullptr: no limit)
  // Made when its budget was already spent, and so not built: from any source, a search would
  // reach nothing but the source itself (no pop is ever left again), as reaches(), free_path()
  // and guards() answer.
  bool starved_ = false;
  uint64_t spare_pops_ = 0;  // pops left to the searches in without_
  std::shared_ptr<const std::vector<uint32_t>> positions_;
  const std::vector<uint32_t>& pos_ = *positions_;  // event -> completion position (kNever: none)
  std::vector<uint32_t> spos_, at_;                 // event -> search position, and back
  std::shared_ptr<const Edges> edges_;
  const std::vector<uint32_t>& out_start_ = edges_->start;
  const std::vector<model::EventId>& out_after_ = edges_->after;
  const std::vector<uint32_t>& out_mask_ = edges_->mask;
  std::vector<uint32_t> ess_start_, ess_;  // by wait rule: its essential candidates
  // active_, after_mask_, rule_used_, cyclic_ and implied_ are build()'s alone: empty after it.
  std::vector<std::vector<model::EventId>> active_;  // by wait rule: candidates it needs, by pos_
  std::vector<uint32_t> after_mask_;  // by wait rule: guards putting the others after its wait
  std::vector<uint32_t> rule_mask_;   // by wait rule: assumptions of using it
  std::vector<uint8_t> rule_used_;    // by wait rule: the searches use it
  std::vector<uint8_t> cyclic_;       // by wait rule: given up for a cycle in the search order
  // What advance() takes by search position, so that a search reads it in the order it walks
  // (by event, each step was a jump to another part of the program's arrays): the position's
  // arcs, an order not under a forbidden assumption that goes forward in search order (`to`: the
  // later event's position; `mask`: its guard), or the wait of a usable rule the event is an
  // essential candidate of (mask kFeed: queued, no path through it); the usable rules whose wait
  // it is; and each essential candidate's position (by ess_).
  static constexpr uint32_t kFeed = UINT32_MAX;
  struct Arc {
    uint32_t to, mask;
  };
  std::vector<uint32_t> arc_start_, wait_start_, wait_rules_, ess_pos_;
  std::vector<Arc> arcs_;
  void by_position(const model::LoweredProgram& p);
  std::unordered_map<const void*, std::pair<OpList, std::vector<std::pair<uint32_t, uint32_t>>>>
      ops_by_pos_;                                  // by OpList::id()
  std::unordered_map<uint64_t, uint32_t> implied_;  // (x, y) -> guards of an x ~> y path, if any
  std::unordered_map<model::EventId, Reach> memo_;
  // By queue: the ME (or host) step of each command that has one, in queue order (hubs_); the
  // hub of each command (kNoHub: none; hub_of_); broken_[q][i]: how many of hubs i' < i have no
  // guard-free path to hub i' + 1 (so hubs i..j are chained without guards iff equal counts).
  static constexpr uint32_t kNoHub = UINT32_MAX;
  bool hubs_built_ = false;
  std::vector<std::vector<model::EventId>> hubs_;
  std::vector<std::vector<uint32_t>> hub_of_, broken_;
  // By queue, by source event: the first hub of the queue (after the source in search order)
  // that the source reaches without guards, as far as looked: its index, with kHubFound set once
  // found (kHubUnscanned: not asked yet). A queue's list is made when first asked about (an
  // event each: a hash map of (source, queue) spent a tenth of the executor's time at 50,000
  // commands walking its buckets).
  static constexpr uint32_t kHubFound = 1u << 31, kHubUnscanned = UINT32_MAX;
  std::vector<std::vector<uint32_t>> hub_scan_;
  // By write through GL2 (access): the next and the previous write of its access group
  // (kNoMate: none), and whether its arrival reaches the next one's on a guard-free path
  // (linked_, kUnknown until asked); see linked_mates_clean(). mark_/stamp_: that function's
  // marks, by access, and quiet()'s (with their guards in mark_guards_); build_mate_links()
  // makes them all.
  static constexpr uint32_t kNoMate = UINT32_MAX;
  static constexpr uint8_t kUnknown = 2;
  bool links_built_ = false;
  std::vector<uint32_t> next_mate_, prev_mate_, mark_, mark_guards_;
  // By access: its arrival and its path as one number (quiet() reads them for every mate of a
  // read, hundreds at a frame: from the accesses themselves that was a cache miss each).
  std::vector<model::EventId> arrive_;
  std::vector<uint64_t> path_key_;
  std::vector<uint32_t> arrive_at_;  // by access: its arrival's search position (none: UINT32_MAX)
  std::vector<uint8_t> linked_;
  uint32_t stamp_ = 0;
  // Whether write `a`'s arrival reaches the next write of its group's on a guard-free path.
  bool linked(uint32_t a);
  // When the previous write of `a`'s group is marked `stamp` and linked to `a`: its guards
  // (mark_guards_). Only without a budget.
  std::optional<uint32_t> after_prev(uint32_t a, uint32_t stamp);
  size_t memo_bytes_ = 0;
  uint64_t by_position_ = 0, searches_ = 0, pops_ = 0;
};

// The assumptions of a mask (bit per AssumptionId).
std::set<model::AssumptionId> assumption_set(uint32_t mask);

}  // namespace syncproof::properties
