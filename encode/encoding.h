#pragma once
// The SMT encoding of a lowered program. Why it looks like this (see ../shared/DESIGN-NOTES.md):
// an execution is an integer time per event; queue order, the seeds' operation orders and
// "X waits for Y" are difference constraints; waits are small disjunctions. Caches are not
// simulated: whether a read is stale is a chain of "first covering operation after the data
// arrived" per cache level (properties/obligation.h), asked for one symbolic line at a time.
// Constraints resting on a named assumption are guarded by one Boolean literal per assumption,
// so the unsat core of a proof lists the assumptions it used.
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "model/events.h"
#include "properties/obligation.h"
#include "properties/proof_cone.h"
#include "properties/slice.h"
#include "solver/solver.h"

namespace syncproof::encode {

class Encoding {
 public:
  Encoding(const model::LoweredProgram& p, solver::Context& ctx);
  // The In events of a counterexample slice only (properties/slice.h): the orders between them,
  // their waits (one with a candidate Before is satisfied; candidates After do not count), and
  // violations over the cache operations In.
  Encoding(const model::LoweredProgram& p, solver::Context& ctx, const properties::Slice& slice);
  // The events of a proof cone only (properties/proof_cone.h): the orders between them and the
  // wait rules the cone keeps. A relaxation: an unsatisfiable violation here is a proof.
  Encoding(const model::LoweredProgram& p, solver::Context& ctx, const properties::Cone& cone);
  // A cone's question about one obligation (its violation made with query index `query_index`,
  // then query()): the same question, with the events only orders mention taken out of the
  // orders (encode/contraction.h). t() has the events the violation and the wait rules use, and
  // violation() is not for it (its events may be gone). No obligation: the cone's own
  // constraints only (query() is `true`): over properties::ConeMaker::whole, whether the case has
  // an execution at all.
  Encoding(const model::LoweredProgram& p, solver::Context& ctx, const properties::Cone& cone,
           const properties::Obligation* o, int query_index);

  // Time of an event (in a slice: of an In event; in a cone: of one in it).
  // A contracted cone question (below) has the times its constraints use; the mutable form makes
  // them while it is built.
  solver::Term t(model::EventId e) const { return time_[e]; }
  solver::Term t(model::EventId e) { return lazy_ ? var(e) : time_[e]; }
  // Whether the encoding has the event (every event, unless it is a slice's).
  bool has(model::EventId e) const {
    if (cone_) return cone_->in[e] != 0;
    return !slice_ || slice_->part[e] == properties::Part::In;
  }
  // Whether the event is a slice's, before every event it encodes.
  bool before_slice(model::EventId e) const {
    return slice_ && e != model::kNoEvent && slice_->part[e] == properties::Part::Before;
  }
  // Every constraint of the program (orders and waits), guards included.
  const std::vector<solver::Term>& base() const { return base_; }
  // The literals of the assumptions this encoding uses (to pass as check assumptions).
  const std::vector<solver::Term>& assumption_literals() const { return literals_; }
  // The assumption name a literal stands for.
  std::string assumption_name(solver::Term lit) const;

  // A fresh query: a violation of `o` (the negation of what properties::monitor checks),
  // together with the symbolic line it is about.
  struct Query {
    solver::Term violation;
    solver::Term line;
  };
  Query violation(const properties::Obligation& o, int query_index);
  // The violation the obligation's cone constructor made.
  const Query& query() const { return query_; }

  solver::Term covers(const model::Coverage& c, solver::Term line);
  // Disequalities keeping a wait's poll and the writes of each part of its word apart, in the
  // times `time` gives events (an execution is an interleaving).
  std::vector<solver::Term> apart(const model::WaitRule& w,
                                  const std::function<solver::Term(model::EventId)>& time);
  solver::Term guard(const model::Guard& g);
  // The conjunction of guards given as bits: bit a for AssumptionId a holding, bit 32 + a for it
  // not holding (properties::ConeMaker's guard bits; a wait's `rests` masks use the low half).
  solver::Term all_of(uint64_t guards);
  solver::Context& ctx() { return ctx_; }
  const model::LoweredProgram& program() const { return p_; }

 private:
  Query violation_of(const properties::Obligation& o, int query_index);
  solver::Term order_term(const model::Order& o);
  solver::Term wait_term(const model::WaitRule& w);
  // Lower bound form: G >= time at which the data has moved through `steps` (see .cpp). `fresh`:
  // the freshness these steps are of, whose GL2 step its line mates may hold shut.
  solver::Term chain_lower(const std::vector<properties::Step>& steps, solver::Term start,
                           solver::Term line, const std::string& prefix, solver::Term* out,
                           const properties::Freshness* fresh = nullptr);
  // Whether operation `op` of the GL2 step may carry the data (properties::gl2_step_open), given
  // the mates' arrivals and the lower bounds of their write-backs to memory (`back`).
  solver::Term gl2_open(const properties::Freshness& f, uint32_t op, solver::Term line,
                        const std::vector<solver::Term>& back);
  // Whether no fill of the render back-end step (f.rb_up = j) left a stale copy by `below`.
  solver::Term no_stale_fill(const properties::Freshness& f, size_t j, solver::Term line,
                             solver::Term below);

  void build();
  void build_contracted(const properties::Obligation* o, int query_index);
  solver::Term var(model::EventId e);
  void add_wait_rules();

  const model::LoweredProgram& p_;
  solver::Context& ctx_;
  const properties::Slice* slice_ = nullptr;
  const properties::Cone* cone_ = nullptr;
  std::vector<solver::Term> time_;
  bool lazy_ = false;  // time_ made on first use (the contracted cone question)
  Query query_;
  std::vector<solver::Term> base_;
  std::vector<solver::Term> literals_;
  std::map<int, solver::Term> literal_of_;  // AssumptionId -> literal
};

}  // namespace syncproof::encode
