#include "encode/part_questions.h"

#include <fmt/format.h>

#include <algorithm>
#include <type_traits>

#include "properties/trace.h"

namespace syncproof::encode::detail {

using namespace model;
using properties::Obligation;

namespace {

// A question about part of the program (a slice or a cone, in a context of its own unless given
// one): the part's encoding and a solver holding its base and the obligation's violation.
struct PartQuestion {
  template <class Part>
  PartQuestion(const LoweredProgram& p, const Part& part, const Obligation& o, const char* what,
               const solver::ContextOptions& so, int* query_counter,
               solver::Context* shared = nullptr)
      : own(),
        ctx(shared ? *shared : own.emplace(so)),
        enc(make(p, ctx, part, o, query_counter)),
        s(ctx, what) {
    for (solver::Term t : enc.base()) s.add(t);
    s.set_query_name(fmt::format("{} ({})", o.name, what));
    q = std::is_same_v<Part, properties::Cone> ? enc.query() : enc.violation(o, (*query_counter)++);
    s.add(q.violation);
  }
  // A cone's question is made with its violation, so that the events only orders mention can be
  // taken out (encode/contraction.h).
  static Encoding make(const LoweredProgram& p, solver::Context& ctx, const properties::Cone& cone,
                       const Obligation& o, int* query_counter) {
    return Encoding(p, ctx, cone, &o, (*query_counter)++);
  }
  static Encoding make(const LoweredProgram& p, solver::Context& ctx,
                       const properties::Slice& slice, const Obligation&, int*) {
    return Encoding(p, ctx, slice);
  }
  std::optional<solver::Context> own;
  solver::Context& ctx;
  Encoding enc;
  solver::Solver s;
  Encoding::Query q;
};

// Whether `name` is one of `only` (no list: every assumption is).
bool among(const std::vector<std::string>* only, std::string_view name) {
  return !only || std::find(only->begin(), only->end(), name) != only->end();
}

// The assumption literals of `enc` that `only` names (no list: all of them).
std::vector<solver::Term> assumed_of(const Encoding& enc, const std::vector<std::string>* only) {
  std::vector<solver::Term> assumed;
  for (solver::Term lit : enc.assumption_literals())
    if (among(only, enc.assumption_name(lit))) assumed.push_back(lit);
  return assumed;
}

// The guard bits (properties::guard_bit) that hold whenever these assumptions are assumed: each
// one's enabled side (Encoding::guard assumes a disabled assumption's negation).
uint64_t usable_guards(const LoweredProgram& p, const std::vector<std::string>& only) {
  uint64_t bits = 0;
  for (int a = 0; a < kAssumptionCount; ++a) {
    const auto id = static_cast<AssumptionId>(a);
    if (among(&only, assumption(id).name))
      bits |= properties::guard_bit({id, p.config.assumptions.enabled(id)});
  }
  return bits;
}

// The assumptions an unsat core names.
std::vector<AssumptionId> core_assumptions(const Encoding& enc, solver::Solver& s) {
  std::vector<AssumptionId> used;
  for (solver::Term lit : s.unsat_core())
    if (auto a = find_assumption(enc.assumption_name(lit))) used.push_back(*a);
  return used;
}

}  // namespace

bool separate_ties(const LoweredProgram& p, Encoding& enc, solver::Solver& s, const Obligation& o,
                   const CheckOptions& opt, const std::vector<solver::Term>& assumed) {
  if (!opt.untie) return false;
  std::vector<EventId> shown = properties::focus_events(p, o);
  auto add_ops = [&](const std::vector<properties::Step>& steps) {
    for (const auto& st : steps)
      for (uint32_t oi : st.ops) shown.push_back(p.cache_ops[oi].ev);
  };
  add_ops(o.fresh.steps), add_ops(o.waw.first_steps);
  for (const properties::LineMate& m : o.fresh.mates) {
    shown.push_back(p.accesses[m.access].arrive);
    add_ops(m.steps.items());
  }
  for (const properties::RbFill& f : o.fresh.fills) shown.push_back(f.ev);
  std::erase_if(shown, [&](EventId e) { return !enc.has(e); });
  std::sort(shown.begin(), shown.end());
  shown.erase(std::unique(shown.begin(), shown.end()), shown.end());
  std::vector<solver::Term> apart;
  for (size_t a = 0; a < shown.size(); ++a)
    for (size_t b = a + 1; b < shown.size(); ++b)
      if (s.int_value(enc.t(shown[a])) == s.int_value(enc.t(shown[b])))
        apart.push_back(enc.ctx().ne(enc.t(shown[a]), enc.t(shown[b])));
  if (apart.empty()) return false;
  std::vector<solver::Term> all;
  for (size_t a = 0; a < shown.size(); ++a)
    for (size_t b = a + 1; b < shown.size(); ++b)
      all.push_back(enc.ctx().ne(enc.t(shown[a]), enc.t(shown[b])));
  s.push();
  s.add(enc.ctx().land(all));
  if (s.check(assumed, opt.timeout_ms).status == solver::Status::Sat) return true;
  s.pop();
  s.check(assumed, opt.timeout_ms);  // the model with ties, again
  return false;
}

std::optional<SlicedRun> sliced_run(const LoweredProgram& p, const Obligation& o,
                                    const solver::ContextOptions& so, const CheckOptions& opt,
                                    int* query_counter, Slicing* slicing, bool traced,
                                    const std::vector<std::string>* only) {
  const std::optional<properties::Slice> slice = slicing->made(p).slice(o, *slicing->hb);
  // A slice of more than half the program saves less than the extra question costs.
  if (!slice || 2 * slice->in > p.events.size()) return std::nullopt;
  PartQuestion question(p, *slice, o, "slice", so, query_counter);
  auto& [own, ctx, enc, s, q] = question;
  const std::vector<solver::Term> assumed = assumed_of(enc, only);
  uint32_t dropped = 0;
  for (int a = 0; a < kAssumptionCount; ++a)
    if (!among(only, assumption(static_cast<AssumptionId>(a)).name)) dropped |= 1u << a;
  if (s.check(assumed, opt.timeout_ms).status != solver::Status::Sat) return std::nullopt;
  if (traced) separate_ties(p, enc, s, o, opt, assumed);
  properties::Times in(p.events.size(), 0);
  for (EventId e = 0; e < p.events.size(); ++e)
    if (enc.has(e)) in[e] = s.int_value(enc.t(e));
  const auto line = static_cast<uint64_t>(s.int_value(q.line));
  std::optional<properties::Times> times = slicing->slicer->extend(*slice, in, dropped);
  if (!times) return std::nullopt;
  properties::MonitorResult m = properties::monitor(p, o, *times, line);
  if (!m.violated) return std::nullopt;
  return SlicedRun{std::move(*times), line, std::move(m)};
}

std::optional<properties::Violated> sliced_violation(const LoweredProgram& p, const Obligation& o,
                                                     int index, const solver::ContextOptions& so,
                                                     const CheckOptions& opt, int* query_counter,
                                                     Slicing* slicing) {
  std::optional<SlicedRun> run = sliced_run(p, o, so, opt, query_counter, slicing, true);
  if (!run) return std::nullopt;
  properties::Violated v;
  v.trace = properties::violation_trace(p, o, run->times, run->m);
  v.witness = {index, std::move(run->times), run->line};
  return v;
}

WholeAnswer contracted_whole(const LoweredProgram& p, const Obligation* o,
                             const solver::ContextOptions& so, const CheckOptions& opt,
                             int* query_counter, Cones* cones,
                             const std::vector<std::string>* only) {
  if (!cones->whole) cones->whole = cones->made(p).whole();
  solver::Context& ctx = cones->context(so);
  Encoding enc(p, ctx, *cones->whole, o, o ? (*query_counter)++ : 0);
  solver::Solver s(ctx, o ? "whole" : "base");
  for (solver::Term t : enc.base()) s.add(t);
  s.set_query_name(o ? fmt::format("{} (whole, contracted)", o->name) : "base (contracted)");
  s.add(enc.query().violation);
  WholeAnswer a{s.check(assumed_of(enc, only), opt.timeout_ms), {}};
  if (a.r.status == solver::Status::Unsat) a.core = core_assumptions(enc, s);
  return a;
}

std::optional<std::vector<AssumptionId>> cone_proof(const LoweredProgram& p, const Obligation& o,
                                                    const solver::ContextOptions& so,
                                                    const CheckOptions& opt, int* query_counter,
                                                    Cones* cones,
                                                    const std::vector<std::string>* only) {
  auto ask = [&](const properties::ConeMaker& maker) -> std::optional<std::vector<AssumptionId>> {
    const std::optional<properties::Cone> cone = maker.cone(o);
    if (!cone || 2 * cone->size > p.events.size()) return std::nullopt;
    // A solver of its own: one popped between the questions made each question slower as the
    // case went on (measured: 8 ms against 12 ms a question at 1,000 commands).
    PartQuestion question(p, *cone, o, "cone", so, query_counter, &cones->context(so));
    auto& [own, ctx, enc, s, q] = question;
    if (s.check(assumed_of(enc, only), opt.timeout_ms).status != solver::Status::Unsat)
      return std::nullopt;
    return core_assumptions(enc, s);
  };
  if (auto proof = ask(cones->made(p))) return proof;
  // A re-check under fewer assumptions: the rules the cone kept may rest on orders under one no
  // longer assumed, and so say nothing. Then a cone whose essential candidates are reckoned
  // without those orders (a relaxation as much as the first). Measured on a 1,000-command frame
  // under --no-order-proofs: it answers the 3 re-checks that went to the whole program (2-5 s)
  // with 22 cones, 9.5 s -> 6.7 s in all.
  if (!only) return std::nullopt;
  const uint64_t usable = usable_guards(p, *only);
  if ((cones->made(p).implied_guards() & ~usable) == 0) return std::nullopt;
  return ask(cones->made(p, usable));
}

std::vector<solver::Term> literals_for(Encoding& enc, const std::vector<AssumptionId>& ids) {
  std::vector<solver::Term> out;
  for (AssumptionId a : ids) {
    (void)enc.guard({a, true});
    for (solver::Term lit : enc.assumption_literals())
      if (enc.assumption_name(lit) == assumption(a).name) out.push_back(lit);
  }
  return out;
}

}  // namespace syncproof::encode::detail
