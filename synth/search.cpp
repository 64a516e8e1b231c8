#include "synth/search.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "model/flags.h"
#include "properties/obligation.h"
#include "synth/hitting_set.h"

namespace syncproof::synth {

using namespace model;

namespace {

std::string verdict_why(const properties::Verdict& v) {
  if (const auto* x = std::get_if<properties::Violated>(&v)) return x->trace.why;
  if (const auto* u = std::get_if<properties::Unknown>(&v)) return "unknown: " + u->reason;
  if (const auto* e = std::get_if<properties::Error>(&v)) return "error: " + e->message;
  return "proved";
}

const properties::Verdict* verdict_of(const Outcome& o, size_t prop) {
  for (const auto& r : o.result.results)
    if (r.property == prop) return &r.verdict;
  return nullptr;
}

std::vector<uint32_t> merged(std::vector<uint32_t> a, const std::vector<uint32_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  std::sort(a.begin(), a.end());
  a.erase(std::unique(a.begin(), a.end()), a.end());
  return a;
}

uint32_t flag_group(const Edit& e) {
  return e.flags ? e.flags : 0x100u * e.control.bits + 1u;
}

}  // namespace

std::string property_words(const Case& c, const Property& p) {
  std::string s{to_string(p.kind)};
  if (p.kind == PropertyKind::Visible || p.kind == PropertyKind::Ordered)
    s += fmt::format(" {} -> {}", p.from, p.to);
  if (p.resource) s += " on " + c.resources[*p.resource].name;
  return s;
}

std::pair<uint32_t, uint8_t> blamed_bits(const properties::Violated& v) {
  uint32_t flags = 0;
  uint8_t control = 0;
  for (const std::string& b : v.trace.blamed) {
    std::istringstream in(b);
    std::string word;
    in >> word;
    const FlagDef* d = find_any_flag(word);
    if (!d) continue;
    if (d->family == FlagFamily::Sync && d->value) flags |= *d->value;
    if (auto cf = control_flag_from_def(*d))
      control |= static_cast<uint8_t>(1u << static_cast<int>(*cf));
  }
  return {flags, control};
}

Oracle::Oracle(Case base, CaseRun run, size_t budget)
    : base_(std::move(base)), run_(std::move(run)), budget_(budget) {}

const Outcome& Oracle::check(std::vector<uint32_t> edits, std::vector<size_t> props) {
  std::sort(edits.begin(), edits.end());
  std::sort(props.begin(), props.end());
  auto key = std::make_pair(edits, props);
  if (auto it = cache_.find(key); it != cache_.end()) return *it->second;
  auto o = std::make_unique<Outcome>();
  std::vector<Edit> chosen;
  for (uint32_t i : edits) chosen.push_back(universe_[i]);
  o->c = apply(base_, chosen, &o->origin);
  if (calls_ >= budget_) {
    o->budget_exhausted = true;
    o->failing = props;
    refused_.push_back(std::move(o));  // not cached: no verdict was given
    return *refused_.back();
  }
  ++calls_;
  Case asked = o->c;
  asked.properties.clear();
  for (size_t p : props) asked.properties.push_back(o->c.properties[p]);
  o->result = run_(asked);
  for (size_t i = 0; i < o->result.results.size(); ++i) {
    auto& r = o->result.results[i];
    r.property = props[i];
    if (!std::holds_alternative<properties::Proved>(r.verdict)) o->failing.push_back(props[i]);
  }
  o->pass = o->failing.empty();
  return *cache_.emplace(std::move(key), std::move(o)).first->second;
}

size_t Oracle::expand(const Outcome& o, size_t prop) {
  const properties::Verdict* v = verdict_of(o, prop);
  const auto* x = v ? std::get_if<properties::Violated>(v) : nullptr;
  if (!x || x->witness.obligation < 0) return 0;
  const LoweredProgram lp = lower(o.c, o.result.config);
  const properties::Obligations obs = properties::obligations_for(lp, o.c.properties[prop]);
  if (x->witness.obligation >= static_cast<int>(obs.list.size())) return 0;
  const properties::ApiOrder order(lp);
  size_t added = 0;
  for (const Pair& pr : obligation_pairs(lp, obs.list[x->witness.obligation]))
    added += add_candidates(base_, o.c, o.origin, order, pr, universe_);
  return added;
}

namespace {

class Search {
 public:
  Search(Oracle& o, const std::vector<size_t>& props, const SearchOptions& opt)
      : o_(o), props_(props), opt_(opt) {}

  SearchResult run() {
    SearchResult res;
    const Outcome& none = o_.check({}, props_);
    if (none.budget_exhausted) return budget();
    if (none.pass) return res;
    if (!grow_universe(none, res)) return res;
    // The hitting-set loop.
    for (;;) {
      HittingSet h = cheapest_hitting_set(
          cores_, [&](const std::vector<uint32_t>& s) { return cost(s); },
          [&](uint32_t e) { return opt_.rank ? opt_.rank(e) : 0; }, opt_.hitting_nodes);
      if (!h.found) return unfixable_all(res);
      if (h.optimal && h.cost >= opt_.ceiling) {
        res.status = SearchResult::Status::Pruned;
        return res;
      }
      exact_ = exact_ && h.optimal;
      const Outcome& x = o_.check(h.members, props_);
      if (x.budget_exhausted) return budget();
      if (x.pass) {
        res.edits = h.members;
        res.cost = cost(h.members);
        res.exact = exact_;
        res.cores = cores_.size();
        return res;
      }
      const size_t p = x.failing.front();
      if (opt_.expand) widen(o_.expand(x, p));
      std::vector<uint32_t> core = grow(h.members, p, x);
      if (o_.exhausted()) return budget();
      if (core.empty()) return unfixable_all(res);
      cores_.push_back(std::move(core));
    }
  }

 private:
  SearchResult budget() {
    SearchResult r;
    r.status = SearchResult::Status::Budget;
    r.why = fmt::format("no fix found within {} engine calls", o_.calls());
    return r;
  }

  std::vector<uint32_t> all() const {
    std::vector<uint32_t> u(o_.universe().size());
    for (uint32_t i = 0; i < u.size(); ++i) u[i] = i;
    return u;
  }

  // Every edit the universe gained joins every core found so far: a core says which of the
  // candidates known then a fix must use; the new ones were not ruled out.
  void widen(size_t added) {
    if (!added) return;
    const auto n = static_cast<uint32_t>(o_.universe().size());
    for (auto& core : cores_)
      for (uint32_t i = n - static_cast<uint32_t>(added); i < n; ++i) core.push_back(i);
  }

  // Until every property passes with every candidate (then the search can start), or the
  // candidates stop growing (unfixable).
  bool grow_universe(const Outcome& start, SearchResult& res) {
    const Outcome* x = &start;
    for (int round = 0;; ++round) {
      size_t added = 0;
      for (size_t p : x->failing) added += o_.expand(*x, p);
      const Outcome& y = o_.check(all(), props_);
      if (y.budget_exhausted) {
        res = budget();
        return false;
      }
      if (y.pass) return true;
      if (!added && round > 0) {
        res.status = SearchResult::Status::Unfixable;
        res.prop = y.failing.front();
        res.why = verdict_why(*verdict_of(y, res.prop));
        return false;
      }
      x = &y;
    }
  }

  SearchResult unfixable_all(SearchResult& res) {
    const Outcome& y = o_.check(all(), props_);
    res.status = SearchResult::Status::Unfixable;
    res.prop = y.failing.empty() ? props_.front() : y.failing.front();
    res.why = y.failing.empty() ? "the model is not monotone here (a set of edits passes that a "
                                  "larger set fails): no fix is given"
                                : verdict_why(*verdict_of(y, res.prop));
    return res;
  }

  int cost(const std::vector<uint32_t>& s) const {
    std::vector<const Edit*> e;
    for (uint32_t i : s) e.push_back(&o_.universe()[i]);
    return added_cost(o_.base(), e, *opt_.costs);
  }

  // The complement of a maximal set F ⊇ H under which property p still fails. Chunks of the
  // candidates outside H are tried whole: first everything the explanation does not name, then
  // each flag; a chunk that makes p pass is split (by flag, then in halves) down to single edits.
  std::vector<uint32_t> grow(const std::vector<uint32_t>& h, size_t p, const Outcome& failed) {
    std::vector<uint32_t> y;
    std::set<uint32_t> in_h(h.begin(), h.end());
    uint32_t blamed = 0;
    uint8_t blamed_control = 0;
    if (const auto* v = verdict_of(failed, p))
      if (const auto* x = std::get_if<properties::Violated>(v))
        std::tie(blamed, blamed_control) = blamed_bits(*x);
    std::vector<uint32_t> rest, suspects;
    for (uint32_t i = 0; i < o_.universe().size(); ++i) {
      if (in_h.count(i)) continue;
      const Edit& e = o_.universe()[i];
      ((e.flags & blamed) || (e.control.bits & blamed_control) ? suspects : rest).push_back(i);
    }
    struct Chunk {
      std::vector<uint32_t> ids;
      bool by_flag;  // split by flag group first
    };
    std::vector<Chunk> work;
    auto by_flag = [&](std::vector<uint32_t> ids) {
      std::stable_sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) {
        return flag_group(o_.universe()[a]) < flag_group(o_.universe()[b]);
      });
      return ids;
    };
    if (!suspects.empty()) work.push_back({by_flag(suspects), true});
    if (!rest.empty()) work.push_back({by_flag(rest), true});  // tried first (a stack)
    const std::vector<size_t> only{p};
    while (!work.empty()) {
      Chunk c = std::move(work.back());
      work.pop_back();
      const Outcome& x = o_.check(merged(merged(h, y), c.ids), only);
      if (x.budget_exhausted) return {};
      if (!x.pass) {
        y = merged(y, c.ids);
        if (opt_.expand) widen(o_.expand(x, p));
        continue;
      }
      if (c.ids.size() == 1) continue;  // this edit is in the core
      std::vector<Chunk> parts;
      const uint32_t g0 = flag_group(o_.universe()[c.ids.front()]);
      const bool mixed = std::any_of(c.ids.begin(), c.ids.end(), [&](uint32_t i) {
        return flag_group(o_.universe()[i]) != g0;
      });
      if (c.by_flag && mixed) {
        for (size_t i = 0; i < c.ids.size();) {
          size_t j = i;
          const uint32_t g = flag_group(o_.universe()[c.ids[i]]);
          while (j < c.ids.size() && flag_group(o_.universe()[c.ids[j]]) == g) ++j;
          parts.push_back({{c.ids.begin() + i, c.ids.begin() + j}, false});
          i = j;
        }
      } else {
        const size_t half = c.ids.size() / 2;
        parts.push_back({{c.ids.begin(), c.ids.begin() + half}, false});
        parts.push_back({{c.ids.begin() + half, c.ids.end()}, false});
      }
      for (auto it = parts.rbegin(); it != parts.rend(); ++it) work.push_back(std::move(*it));
    }
    std::vector<uint32_t> core;
    const std::set<uint32_t> in_y(y.begin(), y.end());
    for (uint32_t i = 0; i < o_.universe().size(); ++i)
      if (!in_h.count(i) && !in_y.count(i)) core.push_back(i);
    return core;
  }

  Oracle& o_;
  std::vector<size_t> props_;
  const SearchOptions& opt_;
  std::vector<std::vector<uint32_t>> cores_;
  bool exact_ = true;
};

}  // namespace

SearchResult cheapest(Oracle& oracle, const std::vector<size_t>& props, const SearchOptions& opt) {
  return Search(oracle, props, opt).run();
}

}  // namespace syncproof::synth
