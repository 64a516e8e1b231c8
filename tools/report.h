#pragma once
// What `syncproof check` prints: one line per property, the trace under each violation, and a
// summary table by directory.
#include <map>
#include <ostream>
#include <string>

#include "encode/check.h"
#include "tools/exit_codes.h"

namespace syncproof::cli {

struct SummaryRow {
  size_t cases = 0, properties = 0, proved = 0, violated = 0, unknown = 0, errors = 0;
  size_t as_expected = 0;
  size_t not_as_expected = 0;  // a definite verdict against the expectation, or an engine error
  size_t gave_up = 0;          // unknown on a prove/refute property (a `check` line's is not)
  size_t input_errors = 0, lint_cases = 0;
  double ms = 0;
  void count(const model::Property& p, const encode::PropertyResult& r);
  void add(const SummaryRow& r);
};

// The outcome of a whole `check` run; exit_code() is the worst outcome (tools/exit_codes.h).
struct Summary {
  std::map<std::string, SummaryRow> rows;  // by directory
  size_t unreadable = 0;                   // inputs that could not be read
  size_t rejected = 0;                     // inputs refused (not regular, too large, over caps)
  size_t internal = 0;                     // cases stopped by an internal error
  size_t disagreements = 0;                // --engine both
  SummaryRow& row_for(const std::string& file);
  SummaryRow total() const;
  Exit exit_code() const;
};

// "FILE:LINE: prove visible a -> b: proved [A-...]" and, for violations, the trace and why.
void print_property(std::ostream& out, const model::Case& c, const model::Property& p,
                    const encode::PropertyResult& r, bool quiet);
void print_summary(std::ostream& out, const Summary& s);

// "visible produce -> consume on grid", "no-hazards", ...
std::string property_text(const model::Case& c, const model::Property& p);

}  // namespace syncproof::cli
