// The must-order search (properties/must_order.h) against the whole-program search it
// replaced (tests/tools/must_order_reference.h), the no-hazards obligations from the write index
// against those from scanning every access (obligations_for's scan_all), and API order as vector
// clocks (properties/api_order.h) against the bitset fixpoint it replaced (below), over the
// bundled library, the fixed-seed fuzz pass and generated frames with and without their bugs.
// Obligation by obligation, the same proof or none; property by property, the list MustOrder::
// minimize makes of the proofs is sufficient (the reference search proves each obligation with
// every other assumption off) and irredundant (with any listed one off as well, it does not prove
// them all), and the lists are no longer in all than the unions of the reference's.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>
#include <memory>

#include "lang/parse.h"
#include "properties/api_order.h"
#include "properties/must_order.h"
#include "tests/tools/library_cases.h"
#include "tests/tools/must_order_reference.h"
#include "tools/fuzz_gen.h"
#include "tools/generate.h"

using namespace syncproof;

namespace {

// API order as it was computed before: predecessor bitsets, iterated to the least fixpoint.
class BitsetApiOrder {
 public:
  explicit BitsetApiOrder(const model::LoweredProgram& p) {
    uint32_t n = 0;
    for (const auto& q : p.commands) base_.push_back(n), n += static_cast<uint32_t>(q.size());
    pred_.assign(n, std::vector<bool>(n, false));
    std::vector<std::vector<std::vector<uint32_t>>> waits(n);
    for (const model::WaitRule& w : p.waits) {
      if (w.initial.can_sat || w.candidates.empty()) continue;
      const model::Event& we = p.events[w.wait];
      std::vector<uint32_t> cands;
      for (model::EventId c : w.candidates)
        cands.push_back(base_[p.events[c].queue] + p.events[c].cmd);
      waits[base_[we.queue] + we.cmd].push_back(std::move(cands));
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t node = 0; node < n; ++node) {
        std::vector<bool> acc = pred_[node];
        const bool first = std::find(base_.begin(), base_.end(), node) != base_.end();
        if (!first) {
          for (uint32_t i = 0; i < n; ++i) acc[i] = acc[i] || pred_[node - 1][i];
          acc[node - 1] = true;
        }
        for (const auto& cands : waits[node])
          for (uint32_t i = 0; i < n; ++i) {
            bool all = true;
            for (uint32_t cn : cands) all = all && (pred_[cn][i] || cn == i);
            if (all) acc[i] = true;
          }
        acc[node] = false;
        if (acc != pred_[node]) pred_[node] = acc, changed = true;
      }
    }
  }
  bool before(uint32_t qa, uint32_t a, uint32_t qb, uint32_t b) const {
    return pred_[base_[qb] + b][base_[qa] + a];
  }

 private:
  std::vector<uint32_t> base_;
  std::vector<std::vector<bool>> pred_;
};

struct OrderTally {
  size_t cases = 0, by_position = 0, searches = 0, obligations = 0, proved = 0,
         with_assumptions = 0, listed = 0, listed_by_reference = 0;
};

uint32_t mask_of(const std::set<model::AssumptionId>& s) {
  uint32_t m = 0;
  for (auto a : s) m |= uint32_t{1} << static_cast<int>(a);
  return m;
}

std::string names(const std::optional<std::set<model::AssumptionId>>& s) {
  if (!s) return "no proof";
  std::string out = "proved:";
  for (auto a : *s) out += " " + std::string(model::assumption(a).name);
  return out;
}

// Every obligation of every (non-deadlock) property of one case, both ways.
void order_compare(const std::string& file, const std::string& text, OrderTally* t,
                   bool api_order) {
  auto pr = lang::parse_case(file, text);
  REQUIRE_MESSAGE(!pr.has_errors(), file);
  const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
  properties::MustOrder fast(p);
  testing::ReferenceMustOrder slow(p);
  std::map<uint32_t, std::unique_ptr<testing::ReferenceMustOrder>> without;
  auto proves_without = [&](uint32_t forbidden, const properties::Obligation& o) {
    auto& r = without[forbidden];
    if (!r) r = std::make_unique<testing::ReferenceMustOrder>(p, forbidden);
    return r->prove(o).has_value();
  };
  const uint32_t all = (uint32_t{1} << model::kAssumptionCount) - 1;
  ++t->cases;
  for (const model::Property& prop : pr.c.properties) {
    if (prop.kind == model::PropertyKind::DeadlockFree) continue;
    auto obs = properties::obligations_for(p, prop);
    auto scanned = properties::obligations_for(p, prop, true);
    CHECK(obs.error == scanned.error);
    REQUIRE_MESSAGE(obs.list.size() == scanned.list.size(), file);
    for (size_t i = 0; i < obs.list.size(); ++i)
      if (obs.list[i].name != scanned.list[i].name || obs.list[i].kind != scanned.list[i].kind)
        FAIL_CHECK(fmt::format("{}: obligation {}: {} (scanning every access: {})", file, i,
                               obs.list[i].name, scanned.list[i].name));
    std::vector<const properties::Obligation*> proved;
    std::vector<uint32_t> masks;
    uint32_t by_reference = 0;
    for (const properties::Obligation& o : obs.list) {
      auto a = fast.prove(o), b = slow.prove(o);
      ++t->obligations;
      t->proved += a.has_value();
      t->with_assumptions += a && !a->empty();
      if (a.has_value() != b.has_value())
        FAIL_CHECK(
            fmt::format("{}: {}: {} (whole-program search: {})", file, o.name, names(a), names(b)));
      if (!a || !b) continue;
      proved.push_back(&o), masks.push_back(mask_of(*a)), by_reference |= mask_of(*b);
    }
    if (proved.empty()) continue;
    const uint32_t listed = fast.minimize(proved, &masks);
    const std::string list = names(properties::assumption_set(listed));
    t->listed += std::popcount(listed), t->listed_by_reference += std::popcount(by_reference);
    for (size_t i = 0; i < proved.size(); ++i) {
      if ((masks[i] & ~listed) != 0)
        FAIL_CHECK(
            fmt::format("{}: {}: its list is not within the property's", file, proved[i]->name));
      if (!proves_without(all & ~listed, *proved[i]))
        FAIL_CHECK(fmt::format("{}: {}: {}, but the whole-program search needs more", file,
                               proved[i]->name, list));
    }
    for (auto x : properties::assumption_set(listed))
      if (std::all_of(proved.begin(), proved.end(), [&](const properties::Obligation* o) {
            return proves_without(all & ~(listed & ~mask_of({x})), *o);
          }))
        FAIL_CHECK(fmt::format("{}: line {}: {}, but {} is not needed", file, prop.loc.line, list,
                               model::assumption(x).name));
  }
  t->by_position += fast.by_position(), t->searches += fast.searches();
  if (!api_order) return;
  properties::ApiOrder vc(p);
  BitsetApiOrder bits(p);
  for (uint32_t qa = 0; qa < p.commands.size(); ++qa)
    for (uint32_t a = 0; a < p.commands[qa].size(); ++a)
      for (uint32_t qb = 0; qb < p.commands.size(); ++qb)
        for (uint32_t b = 0; b < p.commands[qb].size(); ++b)
          if (vc.before(qa, a, qb, b) != bits.before(qa, a, qb, b))
            FAIL_CHECK(fmt::format("{}: API order of ({},{}) before ({},{})", file, qa, a, qb, b));
}

}  // namespace

TEST_CASE(
    "must order: the reference search's proofs, with sufficient and irredundant lists, the "
    "library") {
  OrderTally t;
  for (const auto& [file, text] : testing::library_cases()) order_compare(file, text, &t, true);
  MESSAGE(
      fmt::format("{} cases, {} obligations, {} proved ({} with assumptions), {} answered by "
                  "position, {} searches; {} assumptions listed ({} by the reference)",
                  t.cases, t.obligations, t.proved, t.with_assumptions, t.by_position, t.searches,
                  t.listed, t.listed_by_reference));
  CHECK(t.listed <= t.listed_by_reference);
  CHECK(t.cases > 200);
  // The comparison means something: the completion order answers questions, and many proofs
  // need an assumption (the lists are compared, not only the verdicts).
  CHECK(t.by_position > 0);
  CHECK(t.proved > 1000);
  CHECK(t.with_assumptions > 100);
}

TEST_CASE(
    "must order: the reference search's proofs, with sufficient and irredundant lists, fuzz seed "
    "1") {
  OrderTally t;
  cli::FuzzShape shape;
  for (uint64_t seed = 1; seed < 1 + 1500; ++seed) {  // the cases of the fuzz/seed-1 pass
    cli::FuzzCase fc = cli::generate_case(seed, shape);
    if (fc.expect_lint_error) continue;
    order_compare(fmt::format("fuzz-{}.sync", seed), fc.render(), &t, true);
  }
  MESSAGE(
      fmt::format("{} cases, {} obligations, {} proved ({} with assumptions), {} answered by "
                  "position, {} searches; {} assumptions listed ({} by the reference)",
                  t.cases, t.obligations, t.proved, t.with_assumptions, t.by_position, t.searches,
                  t.listed, t.listed_by_reference));
  CHECK(t.listed <= t.listed_by_reference);
  CHECK(t.cases > 1000);
  CHECK(t.by_position > 0);
  CHECK(t.proved > 100);
}

TEST_CASE(
    "must order: the reference search's proofs, with sufficient and irredundant lists, frames" *
    doctest::test_suite("full-size")) {
  OrderTally t;
  for (auto bug : {cli::FrameBug::None, cli::FrameBug::NoGl1Invalidate, cli::FrameBug::NoLabelWait,
                   cli::FrameBug::NoGl2Writeback, cli::FrameBug::NoSyncCpdma}) {
    cli::FrameShape s;
    s.commands = 600, s.bug = bug, s.seed = 3;
    order_compare(fmt::format("frame-{}.sync", cli::to_string(bug)), cli::generate_frame(s), &t,
                  false);
  }
  MESSAGE(
      fmt::format("{} frames, {} obligations, {} proved ({} with assumptions), {} answered by "
                  "position, {} searches; {} assumptions listed ({} by the reference)",
                  t.cases, t.obligations, t.proved, t.with_assumptions, t.by_position, t.searches,
                  t.listed, t.listed_by_reference));
  CHECK(t.listed <= t.listed_by_reference);
  CHECK(t.by_position > 0);
  CHECK(t.proved > 1000);
}

// MustOrder::essentials reads a rule whose candidates are a linked tail of its word's writers off
// per word: the same proofs, the same paths' lists and the same minimized lists as taking each
// list one candidate at a time, on frames (whose waits for ever higher fence values are such
// tails) with and without their bugs.
TEST_CASE("must order: tails of a word's writers read off per word, as one candidate at a time") {
  size_t obligations = 0, guarded = 0;
  for (auto bug : {cli::FrameBug::None, cli::FrameBug::NoLabelWait, cli::FrameBug::NoSyncCpdma}) {
    cli::FrameShape s;
    s.commands = 1500, s.bug = bug, s.seed = 5;
    auto pr = lang::parse_case("frame.sync", cli::generate_frame(s));
    REQUIRE(!pr.has_errors());
    const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
    properties::MustOrder tails(p), each(p, false);
    for (const model::Property& prop : pr.c.properties) {
      if (prop.kind == model::PropertyKind::DeadlockFree) continue;
      const auto obs = properties::obligations_for(p, prop);
      std::vector<const properties::Obligation*> proved;
      std::vector<uint32_t> masks_tails, masks_each;
      for (const properties::Obligation& o : obs.list) {
        const auto a = tails.paths(o), b = each.paths(o);
        CAPTURE(o.name);
        REQUIRE(a == b);
        ++obligations;
        if (!a) continue;
        guarded += *a != 0;
        proved.push_back(&o), masks_tails.push_back(*a), masks_each.push_back(*b);
      }
      CHECK(tails.minimize(proved, &masks_tails) == each.minimize(proved, &masks_each));
      CHECK(masks_tails == masks_each);
    }
  }
  MESSAGE(obligations, " obligations, ", guarded, " proved with assumptions");
  CHECK(obligations > 1000);
  CHECK(guarded > 100);
}
