#pragma once
// SMT-LIB text without Z3: symbol and file-name sanitizing, and the layout of the query dumps
// (the Z3-printed terms are filled in by the backend).
#include <string>
#include <string_view>
#include <vector>

#include "solver/solver.h"
#include "solver/term.h"

namespace syncproof::solver {

// How a variable name appears in SMT-LIB: characters outside letters, digits and _.-+*/<>=%^&~@
// become '_' (Z3's printers use ! $ ? in let-bound names, so variables never contain them), and
// '_' is prepended to names that start with anything but a letter or '_' or that are SMT-LIB
// reserved words, command names or theory symbols ("and", "push", "div"). "t.gfx.12.me" stays.
std::string smt_symbol(std::string_view name);

// A query name as a file-name stem: [A-Za-z0-9._-] kept, anything else '_', no leading '.'.
std::string file_stem(std::string_view query_name);

// One check, ready to be printed as an SMT-LIB script that z3 and cvc5 read back.
struct SmtlibQuery {
  std::string_view query;  // the Solver's query name
  unsigned index = 0;      // 1-based count of dumps of this query in its Context
  Status status = Status::Unknown;
  std::string_view reason;
  double elapsed_ms = 0;
  std::vector<std::string> declarations;  // complete (declare-fun ...) commands
  std::vector<std::string> assertions;    // terms
  struct Assumption {
    std::string text;
    bool literal = false;  // a Bool symbol or its negation; anything else gets a named proxy
  };
  std::vector<Assumption> assumptions;
};

// (set-logic QF_LIA), declarations, assertions, (check-sat-assuming (...)) or (check-sat),
// (get-info :reason-unknown) after an unknown answer, (exit). check-sat-assuming takes literals
// only: assumption k that is not one becomes a Bool assume!k asserted equal to it.
std::string render_smtlib(const SmtlibQuery& q);

// Writes <dir>/<stem>-<index>.smt2 (creating dir) and returns its path; throws Error on failure.
std::string write_dump(const std::string& dir, std::string_view stem, unsigned index,
                       std::string_view text);

}  // namespace syncproof::solver
