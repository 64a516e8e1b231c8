#pragma once
// What `syncproof check` prints: one line per property, the trace under each violation, and a
// summary table by directory.
#include <map>
#include <ostream>
#include <string>

#include "encode/check.h"

namespace syncproof::cli {

struct SummaryRow {
  size_t cases = 0, properties = 0, proved = 0, violated = 0, unknown = 0, errors = 0;
  size_t as_expected = 0, not_as_expected = 0, input_errors = 0, lint_cases = 0;
  double ms = 0;
  void count(const encode::PropertyResult& r);
};

struct Summary {
  std::map<std::string, SummaryRow> rows;  // by directory
  size_t unreadable = 0;
  SummaryRow& row_for(const std::string& file);
  int exit_code() const;
};

// "FILE:LINE: prove visible a -> b: proved [A-...]" and, for violations, the trace and why.
void print_property(std::ostream& out, const model::Case& c, const model::Property& p,
                    const encode::PropertyResult& r, bool quiet);
void print_summary(std::ostream& out, const Summary& s);

// "visible produce -> consume on grid", "no-hazards", ...
std::string property_text(const model::Case& c, const model::Property& p);

}  // namespace syncproof::cli
