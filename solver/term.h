#pragma once
// Terms are cheap value handles into the expression table of a solver::Context. They carry no
// Z3 type: only solver/*.cpp sees Z3, and it is linked privately into this library.
#include <cstdint>
#include <stdexcept>
#include <string_view>

namespace syncproof::solver {

// An index into the expression table of the Context that built it. Structurally equal terms
// built by the same Context have the same id (the table is hash-consed).
struct Term {
  uint32_t id = UINT32_MAX;  // default: no term
  friend bool operator==(Term, Term) = default;
};

enum class Sort : uint8_t { Bool, Int };
std::string_view to_string(Sort s);

// A failure inside Z3 (out of memory, a value that does not fit int64_t, an unwritable dump
// file). Misuse of this API (sort mismatch, reading a model after unsat, pop without push)
// throws std::logic_error instead. Solver outcomes (sat/unsat/unknown) are values, never errors.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace syncproof::solver
