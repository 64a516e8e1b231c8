// The executor's searches. Why they are sound and complete for the monitors they decide:
//
// 0. Two kinds of events (exec/graph.h). A wait that a later write can hide (a value rule: its
//    poll reads the word's value when it fires, model/wait_value.h) can be disabled again by a
//    write; its waits and writers are the non-monotone events `nm`. Every other event is
//    monotone: its firing disables nothing, and it changes no value a poll reads.
// 1. So firing a monotone event early never loses an execution: take any execution that fires
//    e later; moving e to where it is enabled first keeps every event enabled where it was
//    (orders and monotone wait rules only gain, and no value rule sees a different value). Hence
//    every search fires enabled monotone events at once, and branches only on enabled nm events
//    (exec/nm_search.h). When there are none (a monotone program), from any reachable state
//    every maximal run ends in the same set of fired events (if two runs ended in S1 != S2, the
//    first event of the second missing from S1 is enabled at S1: S1 was not maximal): deadlock
//    freedom needs one run, and once the case has a complete execution (the vacuity check),
//    every reachable state extends to one. With nm events neither holds: deadlock freedom
//    explores the orders of the nm events (a state counts as stuck when every enabled event is a
//    wait whose poll may fail), and a violation counts only once an execution completing it is
//    found (complete_execution).
// 2. Two-chain obligations (watch.h): an event that is not relevant to the obligation, or that
//    is "urgent" (ChainWatch::urgent: firing it now cannot hurt a violation), is fired at once
//    without branching, unless it is non-monotone. Moving such an event to the front of any
//    violating continuation keeps it violating, so nothing is lost (the exchange argument is
//    written at ChainWatch::urgent; point 1 keeps the continuation an execution). The search
//    branches only where every enabled event is a choice (a start event, an operation that
//    would advance chain A or be wasted for chain B, or an nm event), and hashes those states.
//    Because monotone non-relevant events are always fired as soon as they are enabled, the
//    fired set at such a state is determined by the relevant and nm events already fired, and
//    the value state by the order the nm writers fired in, so (relevant and nm events fired,
//    value state, progress) identifies the state exactly: two paths reaching the same key have
//    the same future. A violation is monotone in the continuation (once the read came too early
//    it stays too early), so it is reported as soon as some completion of it exists.
// 3. Ordered: a violating execution exists iff for some `before` event a, some `after` event
//    fires in a run that never fires a and extends to a complete execution — one run for a
//    monotone program (point 1), the orders of the nm events otherwise.
// 4. Cone: an event that is no ancestor (through orders, monotone wait candidates and every
//    writer of a value rule) of a watched event never helps enable one, nor disables one, so the
//    reduced searches leave it unfired until the verdict is in and then complete the execution.
//    Every nm event is watched (check.cpp): leaving one unfired could miss the only order in
//    which a wait completes. Points 2 and 3 hold within the cone as they do without it. For
//    Fresh and ReadFirst the verdict is in when the read fires, so operations that must follow
//    the read are not watched (check.cpp).
// Without `reduce` every interleaving state (fired set, value state, progress) is visited and
// hashed: the reference the reduced searches are tested against (tests/exec/test_reduction.cpp,
// with a naive enumerator that shares no code with exec/), and what benchmarks compare with SPIN.
#include "exec/search.h"

#include <fmt/format.h>

#include <algorithm>

#include "exec/nm_search.h"
#include "exec/state_set.h"

namespace syncproof::exec {

using namespace model;

namespace {

class Meter {
 public:
  Meter(const Budget& b, const Runner& r) : b_(b), r_(r), start_(r.transitions) {}
  bool exhausted(std::string* reason) {
    if (b_.max_states && r_.transitions - start_ > b_.max_states) {
      *reason = fmt::format("state budget exhausted ({} states)", b_.max_states);
      return true;
    }
    if ((calls_++ & 255) == 0 && std::chrono::steady_clock::now() > b_.deadline) {
      *reason = "timeout";
      return true;
    }
    return false;
  }

 private:
  const Budget& b_;
  const Runner& r_;
  uint64_t start_;
  uint64_t calls_ = 0;
};

// Words a progress takes in a state's key: ja, jb and the stale fill, then the mates' positions,
// 8 a word.
size_t progress_words(const ChainWatch& w) {
  return 1 + (w.mates.size() + 7) / 8;
}

void pack(const Progress& s, uint64_t* out) {
  out[0] = static_cast<uint8_t>(s.ja) | (uint64_t{static_cast<uint8_t>(s.jb)} << 8) |
           (uint64_t{s.stale_fill} << 16);
  for (size_t m = 0; m < s.mates.size(); ++m)
    out[1 + m / 8] |= uint64_t{static_cast<uint8_t>(s.mates[m])} << (8 * (m % 8));
}

class ChainSearch {
 public:
  ChainSearch(const Graph& g, const ChainWatch& w, bool reduce, const Budget& b, const Bitset* cone,
              SearchStats& st)
      : g_(g),
        w_(w),
        reduce_(reduce),
        cone_(reduce ? cone : nullptr),
        b_(b),
        st_(st),
        r_(g),
        meter_(b, r_),
        nm_index_(nm_indices(g)),
        rel_words_((w.relevant.size() + 63) / 64),
        nm_words_((nm_list_.size() + 63) / 64),
        progress_words_(progress_words(w)),
        seen_(reduce ? rel_words_ + nm_words_ + progress_words_ + g.vrules.size()
                     : (g.n + 63) / 64 + progress_words_ + g.vrules.size()),
        fired_key_(rel_words_ + nm_words_, 0),
        cand_(rel_words_, 0) {}

  SearchResult run() {
    SearchResult res;
    res.status = reduce_ ? reduced(w_.start()) : full(w_.start());
    if (res.status == Status::Violated) res.order = r_.trail();  // complete (finish())
    res.reason = reason_;
    st_.stored += seen_.size();
    st_.transitions += r_.transitions;
    return res;
  }

 private:
  // By event: its place among the non-monotone events (by event number), or -1.
  std::vector<int32_t> nm_indices(const Graph& g) {
    std::vector<int32_t> out(g.n, -1);
    g.nm.for_each([&](size_t e) {
      out[e] = static_cast<int32_t>(nm_list_.size());
      nm_list_.push_back(static_cast<EventId>(e));
      if (w_.slot[e] >= 0) rel_nm_.push_back(w_.slot[e]);
    });
    return out;
  }

  // A state's key begins with one bit per relevant event (by slot) and one per non-monotone
  // event that has fired. fired_key_ holds those bits for the first `tracked_` events of the
  // runner's trail, kept up to date as the trail grows (sync_key) and shrinks (undo_to): the
  // same bits as testing every such event at every state, which with thousands of relevant
  // events (a frame's whole-program search) was half the executor's time.
  void flip(EventId e) {
    if (const int32_t k = w_.slot[e]; k >= 0) fired_key_[k / 64] ^= uint64_t{1} << (k % 64);
    if (const int32_t k = nm_index_[e]; k >= 0)
      fired_key_[rel_words_ + k / 64] ^= uint64_t{1} << (k % 64);
  }
  void sync_key() {
    const std::vector<EventId>& t = r_.trail();
    for (; tracked_ < t.size(); ++tracked_) flip(t[tracked_]);
  }
  void undo_to(size_t mark) {
    const std::vector<EventId>& t = r_.trail();
    for (; tracked_ > mark; --tracked_) flip(t[tracked_ - 1]);
    for (size_t i = mark; i < t.size(); ++i) maybe_enabled(t[i]);  // unfired: may be enabled
    r_.undo_to(mark);
  }

  // cand_: a superset of the enabled monotone relevant events, by slot, so that a search state
  // finds them without testing every relevant event. A monotone event is enabled only by a fire
  // (the runner lists it as newly enabled, and saturate() adds it here) or by undoing its own
  // fire (undo_to adds it); nothing else disables it than its own firing, so one found not
  // enabled is dropped and comes back by one of those two ways.
  void maybe_enabled(EventId e) {
    if (const int32_t k = w_.slot[e]; k >= 0 && !g_.nm.test(e))
      cand_[k / 64] |= uint64_t{1} << (k % 64);
  }
  // The enabled monotone relevant events from slot `from` on, in slot order.
  void monotone_slots(size_t from) {
    slots_.clear();
    for (size_t word = from / 64; word < cand_.size(); ++word) {
      uint64_t x = cand_[word];
      if (word == from / 64) x &= ~uint64_t{0} << (from % 64);
      for (; x; x &= x - 1) {
        const size_t k = word * 64 + static_cast<size_t>(std::countr_zero(x));
        if (r_.enabled(w_.relevant[k]))
          slots_.push_back(static_cast<int32_t>(k));
        else
          cand_[word] &= ~(uint64_t{1} << (k % 64));
      }
    }
  }

  // A violation counts only in an execution that completes (graph.h): complete this one, or undo
  // to `mark` and say why not.
  Status finish(size_t mark) {
    const Status c = complete_execution(r_, g_, b_, st_);
    if (c == Status::Violated) return Status::Violated;
    undo_to(mark);
    if (c == Status::Unknown) reason_ = "state budget exhausted completing a counterexample";
    return c == Status::Unknown ? Status::Unknown : Status::Safe;
  }

  // Fires non-relevant and urgent events until only choices are enabled. Non-monotone events
  // are always choices: firing one may disable another (graph.h).
  //
  // Each round fires the first relevant event (in `relevant` order) that is enabled and urgent.
  // Nothing is disabled here (non-monotone events are not fired), and urgency changes only with
  // the progress, so a round may resume its scan after the event the last one fired unless the
  // progress moved or an earlier relevant event became enabled: the same events fire in the same
  // order as with a scan from the start each round, without its cost (quadratic in the relevant
  // events, which in a frame's whole-program search are thousands).
  Outcome saturate(Progress& s) {
    std::vector<EventId> work;
    work.swap(r_.newly_enabled());
    size_t from = 0;  // the relevant events before it are not enabled and urgent
    for (;;) {
      while (!work.empty()) {
        EventId e = work.back();
        work.pop_back();
        if (w_.slot[e] >= 0)
          from = std::min(from, static_cast<size_t>(w_.slot[e])), maybe_enabled(e);
        if (!r_.enabled(e) || w_.slot[e] >= 0 || (cone_ && !cone_->test(e)) || g_.nm.test(e))
          continue;
        r_.fire(e);
        auto& nw = r_.newly_enabled();
        work.insert(work.end(), nw.begin(), nw.end());
        nw.clear();
      }
      bool progressed = false;
      monotone_slots(from);
      for (const int32_t slot : slots_) {
        const auto i = static_cast<size_t>(slot);
        const EventId e = w_.relevant[i];
        if (!w_.urgent(e, s)) continue;
        r_.fire(e);
        const int8_t ja = s.ja, jb = s.jb;
        const uint8_t stale = s.stale_fill;
        const std::vector<int8_t> mates = s.mates;  // empty unless the obligation has line mates
        Outcome out = w_.advance(e, s);
        auto& nw = r_.newly_enabled();
        work.insert(work.end(), nw.begin(), nw.end());
        nw.clear();
        if (out != Outcome::Open) return out;
        from = ja == s.ja && jb == s.jb && stale == s.stale_fill && mates == s.mates ? i + 1 : 0;
        progressed = true;
        break;
      }
      if (!progressed) return Outcome::Open;
    }
  }

  Status branch(EventId c, const Progress& s, bool reduced_mode) {
    const size_t mark = r_.trail().size();
    Progress s2 = s;
    r_.fire(c);
    Outcome out = w_.advance(c, s2);
    if (out == Outcome::Violated) return finish(mark);
    if (out == Outcome::Open) {
      Status x = reduced_mode ? reduced(s2) : full(s2);
      if (x != Status::Safe) return x;
    }
    undo_to(mark);
    return Status::Safe;
  }

  Status reduced(Progress s) {
    const size_t mark = r_.trail().size();
    Outcome out = saturate(s);
    if (out == Outcome::Violated) return finish(mark);
    if (out == Outcome::Safe || meter_.exhausted(&reason_)) {
      undo_to(mark);
      return out == Outcome::Safe ? Status::Safe : Status::Unknown;
    }
    sync_key();
    key_ = fired_key_;
    key_.resize(rel_words_ + nm_words_ + progress_words_, 0);
    // The choices: the enabled relevant events in slot order, then the enabled non-monotone
    // events of the cone outside `relevant`, by event.
    monotone_slots(0);
    for (const int32_t k : rel_nm_)
      if (r_.enabled(w_.relevant[static_cast<size_t>(k)])) slots_.push_back(k);
    std::sort(slots_.begin(), slots_.end());
    std::vector<EventId> choices;
    for (const int32_t slot : slots_) choices.push_back(w_.relevant[static_cast<size_t>(slot)]);
    for (const EventId e : nm_list_)
      if (r_.enabled(e) && w_.slot[e] < 0 && (!cone_ || cone_->test(e))) choices.push_back(e);
    pack(s, &key_[rel_words_ + nm_words_]);
    r_.value_key(key_);
    if (seen_.insert(key_.data()))
      for (EventId c : choices)
        if (Status x = branch(c, s, true); x != Status::Safe) return x;
    undo_to(mark);
    return Status::Safe;
  }

  Status full(Progress s) {
    if (meter_.exhausted(&reason_)) return Status::Unknown;
    key_ = r_.fired_set().words();
    key_.resize(key_.size() + progress_words_, 0);
    pack(s, &key_[key_.size() - progress_words_]);
    r_.value_key(key_);
    if (!seen_.insert(key_.data())) return Status::Safe;
    r_.newly_enabled().clear();
    const size_t base = stack_.size();  // enabled events of the nodes on the path
    r_.enabled_set().for_each([&](size_t e) { stack_.push_back(static_cast<EventId>(e)); });
    const size_t end = stack_.size();
    for (size_t i = base; i < end; ++i)
      if (Status x = branch(stack_[i], s, false); x != Status::Safe) return x;
    stack_.resize(base);
    return Status::Safe;
  }

  const Graph& g_;
  const ChainWatch& w_;
  bool reduce_;
  const Bitset* cone_;
  const Budget& b_;
  SearchStats& st_;
  Runner r_;
  Meter meter_;
  std::vector<EventId> nm_list_;  // the non-monotone events, by event
  std::vector<int32_t> rel_nm_;   // the slots of the relevant ones
  std::vector<int32_t> nm_index_;
  size_t rel_words_, nm_words_, progress_words_;
  StateSet seen_;
  std::vector<EventId> stack_;
  std::vector<uint64_t> key_;
  std::vector<uint64_t> fired_key_;  // the key's fired bits for the trail's first tracked_ events
  size_t tracked_ = 0;
  std::vector<uint64_t> cand_;  // see maybe_enabled
  std::vector<int32_t> slots_;  // monotone_slots' answer
  std::string reason_;
};

}  // namespace

std::vector<EventId> any_execution(const Graph& g, const Budget& b) {
  Runner r(g);
  SearchStats st;
  if (complete_execution(r, g, b, st) != Status::Violated) r.saturate(nullptr, nullptr, true);
  return r.trail();
}

SearchResult search_chain(const Graph& g, const ChainWatch& w, bool reduce, const Budget& b,
                          SearchStats& st, const Bitset* cone) {
  return ChainSearch(g, w, reduce, b, cone, st).run();
}

}  // namespace syncproof::exec
