#pragma once
// What a wait reads when it polls (R-WAIT-VALUE, SEMANTICS.md §5): the word in memory at that
// moment, part by part — the two little-endian 32-bit dwords of a label word, or the one 64-bit
// value of a fence — each part holding what the latest write of it that landed before the poll
// wrote, or the initial value. A wait completes at a poll whose value satisfies its comparison,
// and a value written and then overwritten before a poll may never be seen.
//
// This file evaluates one poll: given which write each part holds, can the comparison hold (the
// wait may complete) and can it fail (the wait may stay blocked)? Values the model does not know
// (timestamps, work that writes the word's bytes, an unknown initial value) make both possible.
// Both engines decide waits through these functions, so they agree on what a poll sees.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "model/assumptions.h"
#include "model/case.h"
#include "model/flags.h"
#include "util/shared_list.h"

namespace syncproof::model {

using EventId = uint32_t;

// A write a wait can see: a value write (Write32/64BitValueBottomOfPipe2X), a fence signal, a
// timestamp write, or work writing the polled bytes (a shader store, a copy, the host).
struct WaitWriter {
  enum class Kind : uint8_t {
    Value,      // a known value
    Timestamp,  // GPU/system timestamp: not known, not 0 under A-TIMESTAMP-NONZERO
    Work,       // work's data: not known; from its arrival on the part holds "any value" for good
  };
  EventId ev;  // when it lands (the value write, the signal, the work's arrival)
  Kind kind;
  uint8_t parts;                    // bit i: writes part i of the polled word
  std::array<uint64_t, 2> value{};  // Kind::Value: the value it gives part 0 / part 1
  bool whole64 = false;             // Timestamp: its 8 bytes are exactly the polled word's 8 bytes
};

// What a Write32/64BitValueBottomOfPipe2X of `dest_bytes` bytes at `dest` writes into the word of
// `wait_bytes` bytes at `wait` (both 4-byte aligned), or nothing when they share no byte.
std::optional<WaitWriter> value_writer(uint64_t wait, unsigned wait_bytes, uint64_t dest,
                                       unsigned dest_bytes, uint64_t value, WriteValueSource source,
                                       EventId ev);
// Which parts of that word the bytes [lo, hi] (inclusive) touch: a bit per part.
uint8_t parts_touched(uint64_t wait, unsigned wait_bytes, uint64_t lo, uint64_t hi);

struct ValueConfig {
  bool initial_zero = true;       // A-INITIAL-ZERO: every part starts at 0 (else: unknown)
  bool timestamp_nonzero = true;  // A-TIMESTAMP-NONZERO
};
// The value assumptions of a configuration, without the ones in `dropped` (bit per AssumptionId).
ValueConfig value_config(const AssumptionSet& a, uint32_t dropped = 0);

// The polled word: `parts` parts of `part_bits` bits, compared as one little-endian value.
struct PolledWord {
  uint8_t parts = 1;       // 1 or 2
  uint8_t part_bits = 64;  // 64 (one part) or 32
  Comparison cmp = Comparison::GreaterEqual;
  uint64_t ref = 0;
  // Shared by the waits on one fence or one word (util/shared_list.h).
  util::SharedList<WaitWriter> writers;
  // More part states than kMaxPollStates: every poll may pass and may fail (set by the lowering
  // through for_each_poll_state; both engines read it through poll_outcome).
  bool too_many_states = false;
};

// The state of one part: a writer index (into PolledWord::writers) or one of these.
inline constexpr int kInitialPart = -1;  // still the initial value
inline constexpr int kUnknownPart = -2;  // work wrote it: any value, whatever lands later

struct PollOutcome {
  bool can_sat = false;   // some value the parts may hold satisfies the comparison
  bool can_fail = false;  // some value does not
};
PollOutcome poll_outcome(const PolledWord& w, std::span<const int> state, ValueConfig cfg);

// Every combination of part states (all parts initial first), or false when there are more than
// kMaxPollStates: then every poll is treated as {can_sat, can_fail} (a sound over-approximation,
// both engines alike).
inline constexpr size_t kMaxPollStates = 4096;
bool for_each_poll_state(const PolledWord& w, const std::function<void(std::span<const int>)>& f);
// Whether for_each_poll_state would give up, without walking the states.
bool too_many_poll_states(const PolledWord& w);
// Whether a poll may pass once something has landed: analyze(w, cfg).may is not empty (for a
// word with writers), found without walking the states after the first that passes.
bool may_pass_after_a_write(const PolledWord& w, ValueConfig cfg);

// What the writers can do to the wait, under one configuration.
struct WaitValues {
  std::vector<uint32_t> may;   // writers in some state (not all initial) where a poll may pass
  std::vector<uint32_t> must;  // writers in some state where a poll must pass
  PollOutcome initial;         // the poll before anything landed
  // Every state but the initial one passes every poll: once anything landed the wait can only
  // complete, whatever lands later (the monotone case, decided by the simple "after a candidate"
  // rule in every engine).
  bool trivially_monotone = true;
  bool overflow = false;  // too many states (see kMaxPollStates)
  // Every writer gives the whole word a known value: each state after the first passes or fails
  // for certain, so `must` is `may`, and neither depends on the configuration.
  bool known = false;
};
WaitValues analyze(const PolledWord& w, ValueConfig cfg);
// analyze(w, cfg), given v = analyze(w, c) for some other configuration c: where only the first
// poll depends on the configuration (only_first_poll_depends), v gives the rest (a frame's waits
// are each analyzed three times, over thousands of writers).
WaitValues analyze_again(const PolledWord& w, const WaitValues& v, ValueConfig cfg);
// Whether the simple candidate rules decide the wait in both senses at once: its first poll
// either must pass or must fail, and every writer that may satisfy it must. Deadlock freedom
// needs this: the rules there let a wait complete only when it must, which is wrong for a wait
// that MAY complete early (an unknown initial value, a timestamp) and so let a later write race
// an earlier one elsewhere (fuzz seed 1000283). Such waits take the exact value rules instead.
bool determinate(const WaitValues& v);
// The same with the first poll's outcome `first` in place of v.initial (v's lists, another
// configuration's first poll: analyze_again without the copy).
bool determinate(const WaitValues& v, const PollOutcome& first);

// Whether the wait is monotone when its writers land in the order `chain` (writer indices) in
// every execution: every writer writes the whole word, none is work, and along initial, chain[0],
// chain[1], ... no state that may pass is followed by one that must fail, nor one that must pass
// by one that may fail. Then the candidate rule is exact although some writer fails the wait (a
// fence signalled 1, 2, 3 on one queue, waited for with >= 2).
bool chain_monotone(const PolledWord& w, std::span<const uint32_t> chain, ValueConfig cfg);
// chain_monotone(w, chain, cfg) for several configurations of one wait. When every writer gives
// the whole word a known value, a configuration decides only the first poll, so the chain is
// walked once (a frame's waits each ask three configurations of a chain of thousands); else each
// call walks it. `w` and `chain` must outlive it.
class ChainMonotone {
 public:
  // `in_order`: analyze(w, c) for some configuration c, given when `chain` is 0, 1, 2, ... (the
  // writers were made in event order): then which writers of known values pass is its `may`
  // list, whatever c, and the chain needs no walk (nor the writers a look: WaitValues::known).
  ChainMonotone(const PolledWord& w, std::span<const uint32_t> chain,
                const WaitValues* in_order = nullptr);
  bool operator()(ValueConfig cfg) const;

 private:
  const PolledWord& w_;
  std::span<const uint32_t> chain_;
  bool known_ = false;
  // Known values: no writer along the chain fails after one passes / every writer passes.
  bool closed_ = false, all_pass_ = false;
};
// Whether analyze(w, cfg) differs between configurations only in its first poll (`initial`):
// a word of one part without timestamp writers, or one of known values (WaitValues::known;
// analyze_again's shortcut). `v`: analyze(w, c) for some c, if at hand.
bool only_first_poll_depends(const PolledWord& w, const WaitValues* v = nullptr);
// The writers' indices in event-id order (the order chain_monotone is asked about).
std::vector<uint32_t> writers_by_event(const PolledWord& w);

// The state of each part once the writers in `landed_order` (indices, in landing order) landed.
std::vector<int> state_after(const PolledWord& w, std::span<const uint32_t> landed_order);

}  // namespace syncproof::model
