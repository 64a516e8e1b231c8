#pragma once
// Proofs from proof cones (properties/proof_cone.h) for the executor: an obligation searched over
// the events of its cone only, as a graph of their own, so that a proof costs the cone's size and
// not the program's (the whole program's searches fire every ancestor of the watched events, so
// a frame's proofs cost its length each).
//
// The cone's graph keeps the orders between two of its events, and of the wait rules of its waits
// only what the whole program's graph (for the same dropped assumptions, exec::WaitRules) has and
// the cone allows:
//  - a value rule only with every writer of its word inside (a value rule is exact);
//  - a monotone rule with every candidate inside as it is; with some outside only where the cone
//    keeps it (properties::Cone::rules: every essential candidate inside, and the candidates the
//    same as the cone's), restricted to those inside, under the guards of the orders that put the
//    others after one of them (a dropped guard frees the wait);
//  - every other wait is free (no rule), and cache operations outside the cone do not exist.
// Each of these is implied by the whole program's constraints, so the restriction of any whole
// execution to the cone is an execution of the cone's graph (dropping constraints only adds
// executions), and a violation of the obligation in it is one there (operations outside only help
// the chains). So a search that finds no violation in the cone is a proof; one that finds a
// violation proves nothing, and the caller asks the whole program (exec/check.cpp).
//
// `present` lists the assumptions the cone's graph rests on (bit per AssumptionId): its orders'
// guards, the value assumptions of its waits (as exec::assumptions_present counts them), the
// chain guards of the monotone rules it keeps and the guards of the restricted ones, so that a
// minimization that tries each of them leaves none out that the proof needs.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "exec/graph.h"
#include "properties/must_order.h"
#include "properties/proof_cone.h"
#include "util/csr.h"

namespace syncproof::exec {

struct ConeGraph {
  Graph g;
  std::vector<model::EventId> events;  // by local event: the program's event
  uint32_t present = 0;
};

class ConeGraphs {
 public:
  explicit ConeGraphs(const model::LoweredProgram& p);
  const model::LoweredProgram& program() const { return p_; }
  // nullopt for a race (no cone proves one). `unkeyed`: properties::ConeMaker::cone's.
  // `dropped`: the assumptions the question leaves out. The program's maker puts a wait's
  // candidate after another through any orders, and a cone that leaned on orders under a dropped
  // assumption keeps no rule for the wait (make()): the wait is free there, and the cone proves
  // little. So the cone is made by a maker that uses no order under those (properties::ConeMaker's
  // `usable`), which makes the candidates essential that then are, and keeps the rule.
  std::optional<properties::Cone> cone(const properties::Obligation& o,
                                       const std::vector<char>* unkeyed = nullptr,
                                       uint32_t dropped = 0);
  // The cone over the events of `c` (a cone made without dropped assumptions) whose wait rules
  // are those the maker without the orders under `dropped` keeps there
  // (properties::ConeMaker::rules_over); nullopt when that maker would leave a monotone wait's
  // rule out for an essential candidate outside them (its own cone takes the candidate in). What
  // the minimization asks first: any set of events is a cone, and this one's restricted
  // obligation, quiet list and units are those of `c`, made once. (On the 50,000-command frame,
  // the events of every cone cone() made under dropped assumptions were those of `c`: 40,657 of
  // 40,657.)
  std::optional<properties::Cone> over(const properties::Cone& c, uint32_t dropped);
  // The assumptions of `dropped` the program's maker leans on (0: the cone is the program
  // maker's); questions with the same give the same cones.
  uint32_t leaned_on(uint32_t dropped) const;
  // The cone's graph under `dropped`, from the program's safety wait rules; valid, and local()
  // maps the program's events to it, until the next call (which reuses its lists' capacity).
  const ConeGraph& make(const properties::Cone& c, WaitRules& rules, uint32_t dropped);
  // make()'s `present` alone (no graph is built, and the last one made is no longer valid).
  uint32_t present(const properties::Cone& c, WaitRules& rules, uint32_t dropped);
  // By program event: its local id in the last cone asked about (make's graph, present's cone),
  // or UINT32_MAX when outside.
  const std::vector<uint32_t>& local() const { return local_; }
  // The obligation with each step's operations cut to those inside the cone (the others do not
  // exist there), so that what the searches make of it costs the cone's size: a step lists every
  // operation of its level in the program (properties/obligation.cpp).
  properties::Obligation restrict(const properties::Obligation& o, const properties::Cone& c);

 private:
  // What make() builds its graph from (into sub_), and its `present`.
  uint32_t collect(const properties::Cone& c, WaitRules& rules, uint32_t dropped);
  // What collect() and over() take from the events alone, made again only when they change
  // (keyed_): a cone is made, then asked present() and make(), and the minimization's questions
  // are mostly over the same events (over()). `given`: the maker's inside() of them, when made.
  void key(const std::vector<model::EventId>& events,
           properties::ConeMaker::Inside* given = nullptr);
  // The maker that uses no order under the assumptions `leaned` (leaned_on's): maker_ for none.
  const properties::ConeMaker& maker(uint32_t leaned);

  const model::LoweredProgram& p_;
  properties::ConeMaker maker_;
  // By leaned_on(dropped) but 0: the makers without the orders under those assumptions.
  std::map<uint32_t, std::unique_ptr<properties::ConeMaker>> makers_without_;
  std::vector<uint32_t> local_;  // maps keyed_
  ConeGraph made_;               // make()'s, and what it reuses
  SubGraph sub_;
  // key()'s: the events, the orders between two of them (local, with the guard's bit), their
  // waits and the writers inside (ConeMaker::inside), and those waits' value assumptions.
  struct InsideOrder {
    uint32_t before, after, guard;
  };
  std::vector<model::EventId> keyed_;
  std::vector<InsideOrder> inside_orders_;
  properties::ConeMaker::Inside inside_;
  uint32_t waits_present_ = 0;
  // A monotone rule's candidates (writer indices, exec::WaitRules) as flags by writer, and whether
  // they are the lowering's (model::WaitRule::candidates, which the cone's argument is about).
  struct Candidates {
    std::vector<uint8_t> is;
    bool lowered = false;
  };
  const Candidates& candidates(uint32_t wait, const std::vector<uint32_t>& ks);

  util::Csr<uint32_t> ops_at_;                                     // by event: its cache operations
  std::map<const std::vector<uint32_t>*, Candidates> candidates_;  // by WaitRules' list
  // By step list (held, so that its address stays its own): by operation, whether it is listed.
  std::map<const void*, std::pair<properties::OpList, std::vector<uint8_t>>> in_list_;
};

// An obligation's proof cones, by the line mates that are key events of them. Keyed by every
// mate, a read's cone reaches back to the earliest write to its GL2 lines: in a frame that
// rewrites its buffers every block, to the start of the frame, so that the frame's proofs cost
// its length each. A mate that is quiet in a cone (properties::MustOrder::quiet of the obligation
// restricted to it: in no execution does the mate keep the line dirty while an invalidation of
// the cone runs) is left out of the cone's searches, so it need not be a key: the keys start
// empty and take in the mates the cone's quiet list leaves in, until it leaves in none outside
// them (the keys only grow, so this ends). A cone is any set (properties/proof_cone.h), and a
// mate outside it is dirty throughout there (exec/watch.cpp), so each is a proof cone; the keys
// only decide how much it can prove.
class ConeQuestions {
 public:
  struct Question {
    properties::Cone c;
    properties::Obligation inside;  // the obligation restricted to the cone (ConeGraphs::restrict)
    properties::MustOrder::Quiet quiet;  // inside's, no assumption left out (made once)
    std::vector<uint64_t> units;         // line_units of inside (exec/watch.h)
  };
  // The quiet list of a restricted obligation with no assumption left out (Quiet::without gives
  // those with some left out).
  using QuietOf = std::function<properties::MustOrder::Quiet(const properties::Obligation&)>;
  // Not for a race (no cone proves one). `keys`: where the keys start (keys() of an earlier
  // instance for the same obligation, whose questions this one then asks alike); empty: none.
  ConeQuestions(ConeGraphs& cones, const properties::Obligation& o, QuietOf quiet_of,
                std::vector<char> keys = {});
  // The question whose cone keys every mate not quiet in it under `dropped`, and that quiet list;
  // the cone is ConeGraphs::cone's without dropped assumptions, and under some
  // ConeGraphs::over's of it where that gives one, else ConeGraphs::cone's under them. Valid while
  // this lives (each is made once).
  const Question& get(uint32_t dropped, properties::MustOrder::Quiet* quiet);
  // The keys the questions start from (by mate: 1 for not a key); those of get(0) once asked.
  const std::vector<char>& keys() const { return first_; }

 private:
  // The question without dropped assumptions for the mates `unkeyed` leaves out of the keys.
  const Question& get_base(const std::vector<char>& unkeyed);
  Question question(properties::Cone c);  // the question over `c`

  ConeGraphs& cones_;
  const properties::Obligation& o_;
  QuietOf quiet_of_;
  std::vector<char> first_;  // the keys to start from (by mate: 1 for not a key)
  std::map<std::pair<uint32_t, std::vector<char>>, Question> made_;  // by leaned_on, keys
};

}  // namespace syncproof::exec
