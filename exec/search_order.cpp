// P-ORDERED and P-DEADLOCK-FREE searches (the reasoning is at the top of search.cpp).
#include <fmt/format.h>

#include <algorithm>

#include "exec/nm_search.h"
#include "exec/search.h"
#include "exec/state_set.h"

namespace syncproof::exec {

using namespace model;

namespace {

bool out_of_budget(const Budget& b, const Runner& r, uint64_t start, uint64_t* calls,
                   std::string* reason) {
  if (b.max_states && r.transitions - start > b.max_states) {
    *reason = fmt::format("state budget exhausted ({} states)", b.max_states);
    return true;
  }
  if (((*calls)++ & 255) == 0 && std::chrono::steady_clock::now() > b.deadline) {
    *reason = "timeout";
    return true;
  }
  return false;
}

std::vector<EventId> sorted_unique(std::vector<EventId> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// Every interleaving state, hashed by its fired set; `visit` decides a state (Open: go on).
class FullDfs {
 public:
  FullDfs(const Graph& g, const Budget& b)
      : g_(g), b_(b), r_(g), seen_((g.n + 63) / 64 + g.vrules.size()) {}
  Runner& runner() { return r_; }

  // on_fire(e): the outcome of firing e from the current state (before it is fired);
  // on_stuck(): the outcome of a state where nothing is enabled.
  template <class OnFire, class OnStuck>
  Status run(OnFire&& on_fire, OnStuck&& on_stuck) {
    if (out_of_budget(b_, r_, 0, &calls_, &reason_)) return Status::Unknown;
    key_ = r_.fired_set().words();
    r_.value_key(key_);
    if (!seen_.insert(key_.data())) return Status::Safe;
    r_.newly_enabled().clear();
    // A state that may last although events are left (value-rule waits whose polls may fail).
    if (g_.mode == WaitMode::Deadlock && r_.may_stay_stuck()) return on_stuck();
    // The enabled events of every node on the path, in one buffer (no allocation per state).
    const size_t base = stack_.size();
    r_.enabled_set().for_each([&](size_t e) { stack_.push_back(static_cast<EventId>(e)); });
    const size_t end = stack_.size();
    if (end == base) return on_stuck();
    for (size_t i = base; i < end; ++i) {
      const EventId e = stack_[i];
      Outcome out = on_fire(e);
      const size_t mark = r_.trail().size();
      r_.fire(e);
      if (out == Outcome::Violated) {
        // It counts only in an execution that completes (graph.h).
        SearchStats scratch;
        const Status c = complete_execution(r_, g_, b_, scratch);
        if (c != Status::Safe) return c;
        r_.undo_to(mark);
        continue;
      }
      if (out == Outcome::Open)
        if (Status x = run(on_fire, on_stuck); x != Status::Safe) return x;
      r_.undo_to(mark);
    }
    stack_.resize(base);
    return Status::Safe;
  }
  void account(SearchStats& st) const {
    st.stored += seen_.size();
    st.transitions += r_.transitions;
  }
  const std::string& reason() const { return reason_; }

 private:
  [[maybe_unused]] const Graph& g_;  // (clang: -Wunused-private-field)
  const Budget& b_;
  Runner r_;
  StateSet seen_;
  std::vector<EventId> stack_;
  std::vector<uint64_t> key_;
  uint64_t calls_ = 0;
  std::string reason_;
};

}  // namespace

SearchResult search_ordered(const Graph& g, const properties::Ordering& o, bool reduce,
                            const Budget& b, SearchStats& st, const Bitset* cone) {
  const std::vector<EventId> before = sorted_unique(o.before), after = sorted_unique(o.after);
  Bitset is_before(g.n), is_after(g.n);
  for (EventId e : before) is_before.set(e);
  for (EventId e : after) is_after.set(e);
  SearchResult res;
  if (!reduce) {
    FullDfs dfs(g, b);
    Runner& r = dfs.runner();
    auto on_fire = [&](EventId e) {
      size_t fired_before = 0;
      for (EventId a : before) fired_before += r.fired(a);
      if (is_after.test(e) && fired_before < before.size()) return Outcome::Violated;
      if (is_before.test(e) && fired_before + 1 == before.size()) return Outcome::Safe;
      return Outcome::Open;
    };
    res.status = dfs.run(on_fire, [] { return Status::Safe; });
    if (res.status == Status::Violated) res.order = r.trail();
    res.reason = dfs.reason();
    dfs.account(st);
    return res;
  }
  Runner r(g);
  uint64_t calls = 0;
  auto after_fired = [&] {
    return std::any_of(after.begin(), after.end(), [&](EventId e) { return r.fired(e); });
  };
  for (EventId a : before) {
    r.reset();
    // An event in both lists is after itself "at the same time": the monitor's t(b) <= t(a).
    Status found = Status::Safe;
    if (is_after.test(a)) {
      found = complete_execution(r, g, b, st);
    } else {
      Bitset blocked(g.n);
      blocked.set(a);
      if (g.monotone()) {
        r.saturate(&blocked, cone);
        if (after_fired()) found = complete_execution(r, g, b, st);
      } else {
        // Some after-event fires while `a` has not, in an execution that completes.
        NmSearch search(r, g, b, &blocked, cone);
        found = search.run([&](Runner&) {
          if (!after_fired()) return Goal::Open;
          return complete_execution(r, g, b, st) == Status::Violated ? Goal::Found : Goal::Open;
        });
        st.stored += search.stored();
        if (found == Status::Unknown) res.reason = search.reason();
      }
    }
    if (found == Status::Violated) {
      res.status = Status::Violated;
      res.order = r.trail();
      break;
    }
    if (found == Status::Unknown || out_of_budget(b, r, 0, &calls, &res.reason)) {
      res.status = Status::Unknown;
      if (res.reason.empty()) res.reason = "state budget exhausted";
      break;
    }
  }
  st.transitions += r.transitions;
  st.stored += before.size();
  return res;
}

SearchResult search_deadlock(const Graph& g, bool reduce, const Budget& b, SearchStats& st) {
  SearchResult res;
  if (!reduce) {
    FullDfs dfs(g, b);
    Runner& r = dfs.runner();
    res.status = dfs.run([](EventId) { return Outcome::Open; },
                         [&] { return r.complete() ? Status::Safe : Status::Violated; });
    if (res.status == Status::Violated) res.order = r.trail();
    res.reason = dfs.reason();
    dfs.account(st);
    return res;
  }
  Runner r(g);
  if (g.monotone()) {
    // Point 1 of search.cpp: one maximal run decides it.
    r.saturate(nullptr);
    st.stored += 1;
    if (!r.complete()) res.status = Status::Violated, res.order = r.trail();
  } else {
    NmSearch search(r, g, b);
    res.status =
        search.run([](Runner& x) { return x.may_stay_stuck() ? Goal::Found : Goal::Open; });
    if (res.status == Status::Violated) res.order = r.trail();
    res.reason = search.reason();
    st.stored += search.stored();
  }
  st.transitions += r.transitions;
  return res;
}

}  // namespace syncproof::exec
