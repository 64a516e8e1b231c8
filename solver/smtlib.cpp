#include "solver/smtlib.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace syncproof::solver {

std::string_view to_string(Sort s) {
  return s == Sort::Int ? "Int" : "Bool";
}

std::string_view to_string(Status s) {
  switch (s) {
    case Status::Sat:
      return "sat";
    case Status::Unsat:
      return "unsat";
    case Status::Unknown:
      return "unknown";
  }
  return "unknown";
}

namespace {

// Words that cannot name a variable: SMT-LIB 2.6 reserved words and command names, and the
// Core/Ints/Reals theory symbols that start with a letter (cvc5 rejects shadowing them).
constexpr std::string_view kReserved =
    " _ BINARY DECIMAL HEXADECIMAL NUMERAL STRING as exists forall let match par assert check-sat"
    " check-sat-assuming declare-const declare-datatype declare-datatypes declare-fun declare-sort"
    " define-fun define-fun-rec define-funs-rec define-sort echo exit get-assertions"
    " get-assignment get-info get-model get-option get-proof get-unsat-assumptions get-unsat-core"
    " get-value pop push reset reset-assertions set-info set-logic set-option true false not and"
    " or xor ite distinct div mod abs ";

bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

bool symbol_char(char c) {
  return is_letter(c) || is_digit(c) ||
         std::string_view("_.-+*/<>=%^&~@").find(c) != std::string_view::npos;
}

}  // namespace

std::string smt_symbol(std::string_view name) {
  std::string out = name.empty() ? "_" : std::string(name);
  for (char& c : out)
    if (!symbol_char(c)) c = '_';
  bool reserved = kReserved.find(fmt::format(" {} ", out)) != std::string_view::npos;
  if (reserved || !(is_letter(out[0]) || out[0] == '_')) out.insert(out.begin(), '_');
  return out;
}

std::string file_stem(std::string_view query_name) {
  std::string out(query_name);
  for (char& c : out)
    if (!(is_letter(c) || is_digit(c) || c == '.' || c == '_' || c == '-')) c = '_';
  if (out.empty() || out[0] == '.') out.insert(out.begin(), '_');
  return out;
}

std::string render_smtlib(const SmtlibQuery& q) {
  std::string name(q.query);
  std::replace_if(
      name.begin(), name.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  std::string out = fmt::format("; syncproof solver query \"{}\", check {}\n", name, q.index);
  out +=
      fmt::format("; z3 answered {}{} in {:.3f} ms\n", to_string(q.status),
                  q.reason.empty() ? std::string() : fmt::format(" ({})", q.reason), q.elapsed_ms);
  out += "(set-info :smt-lib-version 2.6)\n";
  out += fmt::format("(set-info :status {})\n", to_string(q.status));
  out += "(set-logic QF_LIA)\n";
  std::vector<std::string> literals;
  for (size_t k = 0; k < q.assumptions.size(); ++k) {
    literals.push_back(q.assumptions[k].literal ? q.assumptions[k].text
                                                : fmt::format("assume!{}", k));
  }
  for (const auto& d : q.declarations) out += d + "\n";
  for (size_t k = 0; k < q.assumptions.size(); ++k) {
    if (!q.assumptions[k].literal) out += fmt::format("(declare-fun {} () Bool)\n", literals[k]);
  }
  for (const auto& a : q.assertions) out += fmt::format("(assert {})\n", a);
  for (size_t k = 0; k < q.assumptions.size(); ++k) {
    const auto& a = q.assumptions[k];
    if (!a.literal) out += fmt::format("(assert (= {} {}))\n", literals[k], a.text);
  }
  if (literals.empty()) {
    out += "(check-sat)\n";
  } else {
    out += fmt::format("(check-sat-assuming ({}))\n", fmt::join(literals, " "));
  }
  if (q.status == Status::Unknown) out += "(get-info :reason-unknown)\n";
  out += "(exit)\n";
  return out;
}

std::string write_dump(const std::string& dir, std::string_view stem, unsigned index,
                       std::string_view text) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  auto path = std::filesystem::path(dir) / fmt::format("{}-{}.smt2", stem, index);
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw Error(fmt::format("solver: cannot write SMT-LIB dump {}", path.string()));
  return path.string();
}

}  // namespace syncproof::solver
