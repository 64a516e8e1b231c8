#pragma once
// The one closed verdict type every engine returns for a property.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace syncproof::properties {

struct TraceLine {
  long long time;       // the event's time in this execution
  std::string queue;    // queue name
  unsigned line;        // source line of the command (0: none)
  std::string command;  // command text (API name and label)
  std::string what;     // what happened
};

// One replacement in a case file's text: `len` bytes at (line, col) (1-based) become `text`.
// A whole new line is `len` 0 at column 1 with `text` ending in a newline.
struct SourceEdit {
  unsigned line = 0, col = 0, len = 0;
  std::string text;
};

// The complete cheapest fix of a violation (synth/, docs/FIX.md): every edit that makes the
// property proved, each re-checked with both engines, as a user reads it and as text edits.
struct Fix {
  std::vector<std::string> edits;   // "case.sync:12: add D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE to
                                    // SyncTopOfPipeX (+2)"; empty when there is none
  std::vector<SourceEdit> changes;  // the same edits applied to the case file's text
  int cost = 0;                     // what they add to the barrier (model/COSTS.md)
  std::string note;                 // no edits: why (no edit set can fix it, not found in budget)
};

struct Trace {
  std::vector<TraceLine> lines;     // time-ordered
  std::string why;                  // one line: why the property fails in this execution
  std::vector<std::string> blamed;  // the flags or waits whose absence the explanation names
  std::optional<Fix> fix;           // filled in by the CLI (`check`, synth/) when asked for
};

struct Proved {
  std::vector<std::string> assumptions;  // named assumptions the proof used (unsat core)
  int obligations = 0;                   // how many solver questions it took
};
// The execution behind a violation, kept so the other engine can replay it
// (`syncproof check --engine both`).
struct Witness {
  int obligation = -1;           // index into obligations_for(...).list; -1: none (deadlock)
  std::vector<long long> times;  // per event; empty when the engine keeps none
  uint64_t line = 0;             // the 64-byte unit the obligation fails on
};
struct Violated {
  Trace trace;
  int failing = 1;  // how many obligations failed (no-hazards may have several)
  // Obligations after the first counterexample that were not decided (a search gave up on its
  // budget, or the engine was asked to stop at the first): `failing` is then a lower bound.
  int undecided = 0;
  Witness witness;  // the first failing obligation's execution
};
struct Unknown {
  std::string reason;  // e.g. "timeout after 10000 ms on visible/produce->consume"
};
struct Error {
  std::string message;  // e.g. vacuous case, property names nothing
};

using Verdict = std::variant<Proved, Violated, Unknown, Error>;

inline const char* verdict_name(const Verdict& v) {
  switch (v.index()) {
    case 0:
      return "proved";
    case 1:
      return "violated";
    case 2:
      return "unknown";
    default:
      return "error";
  }
}

}  // namespace syncproof::properties
