#include "exec/nm_search.h"

#include <fmt/format.h>

namespace syncproof::exec {

using namespace model;

NmSearch::NmSearch(Runner& r, const Graph& g, const Budget& b, const Bitset* blocked,
                   const Bitset* only)
    : r_(r),
      g_(g),
      b_(b),
      blocked_(blocked),
      only_(only),
      seen_((g.n + 63) / 64 + g.vrules.size()),
      start_(r.transitions) {}

Status NmSearch::run(const std::function<Goal(Runner&)>& goal) {
  return dfs(goal);
}

Status NmSearch::dfs(const std::function<Goal(Runner&)>& goal) {
  const size_t mark = r_.trail().size();
  r_.saturate(blocked_, only_, /*skip_nm=*/true);
  if (goal(r_) == Goal::Found) return Status::Violated;
  const bool out_of_states = b_.max_states && r_.transitions - start_ > b_.max_states;
  if (out_of_states || ((calls_++ & 255) == 0 && std::chrono::steady_clock::now() > b_.deadline)) {
    reason_ = out_of_states ? fmt::format("state budget exhausted ({} states)", b_.max_states)
                            : "timeout";
    r_.undo_to(mark);
    return Status::Unknown;
  }
  key_ = r_.fired_set().words();
  r_.value_key(key_);
  if (seen_.insert(key_.data())) {
    std::vector<EventId> choices;
    r_.enabled_set().for_each([&](size_t e) {
      if (g_.nm.test(e) && !(blocked_ && blocked_->test(e)) && !(only_ && !only_->test(e)))
        choices.push_back(static_cast<EventId>(e));
    });
    for (EventId c : choices) {
      if (!r_.enabled(c)) continue;
      const size_t before = r_.trail().size();
      r_.fire(c);
      const Status x = dfs(goal);
      if (x == Status::Violated) return x;
      r_.undo_to(before);
      if (x == Status::Unknown) {
        r_.undo_to(mark);
        return x;
      }
    }
  }
  r_.undo_to(mark);
  return Status::Safe;
}

Status complete_execution(Runner& r, const Graph& g, const Budget& b, SearchStats& st) {
  if (g.monotone()) {
    const size_t mark = r.trail().size();
    r.saturate(nullptr);
    if (r.complete()) return Status::Violated;
    r.undo_to(mark);
    return Status::Safe;
  }
  NmSearch search(r, g, b);
  const Status s = search.run([](Runner& x) { return x.complete() ? Goal::Found : Goal::Open; });
  st.stored += search.stored();
  return s;
}

}  // namespace syncproof::exec
