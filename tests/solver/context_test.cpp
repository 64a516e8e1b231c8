// Terms and names: the expression table, variables, sort checks, SMT-LIB-safe symbols.
#include <doctest/doctest.h>

#include <stdexcept>

#include <algorithm>
#include <optional>
#include <span>
#include <vector>

#include "solver/context.h"
#include "solver/core.h"
#include "solver/smtlib.h"

namespace sv = syncproof::solver;

TEST_CASE("the same variable name gives the same variable") {
  sv::Context cx;
  sv::Term a = cx.int_var("t.gfx.12.me");
  CHECK(cx.int_var("t.gfx.12.me") == a);
  CHECK(cx.int_var("t.gfx.12.end") != a);
  CHECK(cx.sort(a) == sv::Sort::Int);
  CHECK(cx.sort(cx.bool_var("p")) == sv::Sort::Bool);
  CHECK(cx.symbol(a) == "t.gfx.12.me");
  CHECK_THROWS_AS(cx.bool_var("t.gfx.12.me"), std::logic_error);
}

TEST_CASE("structurally equal terms share an id") {
  sv::Context cx;
  sv::Term x = cx.int_var("x"), y = cx.int_var("y");
  CHECK(cx.le(cx.sub(x, y), cx.int_val(-3)) == cx.le(cx.sub(x, y), cx.int_val(-3)));
  CHECK(cx.le(cx.sub(x, y), cx.int_val(-3)) != cx.le(cx.sub(y, x), cx.int_val(-3)));
  CHECK(cx.to_smtlib(cx.le(cx.sub(x, y), cx.int_val(-3))) == "(<= (- x y) (- 3))");
}

TEST_CASE("builders: degenerate n-ary forms and sorts") {
  sv::Context cx;
  sv::Term p = cx.bool_var("p"), x = cx.int_var("x");
  CHECK(cx.land({}) == cx.bool_val(true));
  CHECK(cx.lor({}) == cx.bool_val(false));
  CHECK(cx.land({p}) == p);
  CHECK(cx.lor({p}) == p);
  CHECK(cx.distinct({}) == cx.bool_val(true));
  CHECK(cx.sort(cx.ite(p, x, cx.int_val(1))) == sv::Sort::Int);
  CHECK(cx.sort(cx.ite(p, p, cx.lnot(p))) == sv::Sort::Bool);
  CHECK(cx.sort(cx.eq(p, p)) == sv::Sort::Bool);
  CHECK(cx.to_smtlib(cx.ne(x, x)) == "(not (= x x))");
}

TEST_CASE("misuse is a logic_error naming the operation") {
  sv::Context cx;
  sv::Term p = cx.bool_var("p"), x = cx.int_var("x");
  CHECK_THROWS_WITH_AS(cx.add(x, p), "solver: add expects Int, got Bool term p", std::logic_error);
  CHECK_THROWS_AS(cx.land({p, x}), std::logic_error);
  CHECK_THROWS_AS(cx.eq(x, p), std::logic_error);
  CHECK_THROWS_AS(cx.ite(x, p, p), std::logic_error);
  CHECK_THROWS_AS(cx.ite(p, p, x), std::logic_error);
  CHECK_THROWS_AS(cx.lnot(sv::Term{}), std::logic_error);
  CHECK_THROWS_AS(cx.symbol(cx.lnot(p)), std::logic_error);
}

TEST_CASE("smt_symbol keeps readable names and makes the rest SMT-LIB-safe") {
  CHECK(sv::smt_symbol("t.gfx.12.me") == "t.gfx.12.me");
  CHECK(sv::smt_symbol("a->b/c") == "a->b/c");
  CHECK(sv::smt_symbol("w[3] |x|") == "w_3___x_");
  CHECK(sv::smt_symbol("a!1") == "a_1");  // Z3's let names are a!1, ?x1, $x1
  CHECK(sv::smt_symbol("?x$") == "_x_");
  CHECK(sv::smt_symbol("12.me") == "_12.me");
  CHECK(sv::smt_symbol(".x") == "_.x");
  CHECK(sv::smt_symbol("and") == "_and");
  CHECK(sv::smt_symbol("push") == "_push");
  CHECK(sv::smt_symbol("check-sat") == "_check-sat");
  CHECK(sv::smt_symbol("android") == "android");
  CHECK(sv::smt_symbol("") == "__");
  CHECK(sv::smt_symbol("_") == "__");
  CHECK(sv::smt_symbol("\xc3\xa9") == "__");  // UTF-8 e-acute
}

TEST_CASE("names that sanitize alike stay distinct variables") {
  sv::Context cx;
  sv::Term a = cx.int_var("a b"), b = cx.int_var("a_b"), c = cx.int_var("a(b");
  CHECK(a != b);
  CHECK(b != c);
  CHECK(cx.symbol(a) == "a_b");
  CHECK(cx.symbol(b) == "a_b.1");
  CHECK(cx.symbol(c) == "a_b.2");
  CHECK(cx.int_var("a_b") == b);
  CHECK(cx.symbol(cx.bool_var("and")) == "_and");
}

TEST_CASE("file_stem makes a query name a file name") {
  CHECK(sv::file_stem("visible/produce->consume/line") == "visible_produce-_consume_line");
  CHECK(sv::file_stem("..") == "_..");
  CHECK(sv::file_stem("") == "_");
}

TEST_CASE("minimize_core drops each literal once, following the oracle's smaller cores") {
  // Unsat iff the set holds 3, or both 1 and 4. The oracle answers with the whole set.
  auto has = [](std::span<const sv::Term> ts, uint32_t id) {
    return std::find(ts.begin(), ts.end(), sv::Term{id}) != ts.end();
  };
  int calls = 0;
  sv::CoreOracle oracle =
      [&](std::span<const sv::Term> ts) -> std::optional<std::vector<sv::Term>> {
    ++calls;
    if (has(ts, 3) || (has(ts, 1) && has(ts, 4)))
      return std::vector<sv::Term>(ts.begin(), ts.end());
    return std::nullopt;
  };
  std::vector<sv::Term> core = {{0}, {1}, {2}, {3}, {4}};
  CHECK(sv::minimize_core(core, oracle) == std::vector<sv::Term>{{3}});
  CHECK(calls == 5);
  CHECK(sv::minimize_core({{1}, {4}}, oracle) == std::vector<sv::Term>{{1}, {4}});
  CHECK(sv::minimize_core({}, oracle).empty());
}
