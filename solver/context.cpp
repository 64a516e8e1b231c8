// The term builders: operand sorts are checked and the difference-logic shape of the result is
// worked out here, without Z3; Context::make (z3_backend.cpp) builds the Z3 expression.
#include "solver/context.h"

#include <fmt/format.h>

#include <stdexcept>
#include <vector>

namespace syncproof::solver {

void Context::need(Term t, Sort want, std::string_view op) const {
  if (Sort s = sort(t); s != want) {
    throw std::logic_error(fmt::format("solver: {} expects {}, got {} term {}", op, to_string(want),
                                       to_string(s), to_smtlib(t)));
  }
}

Term Context::binary(Op op, std::string_view name, Term a, Term b, Sort in, Sort out,
                     Shape (*combine)(Shape, Shape)) {
  need(a, in, name);
  need(b, in, name);
  Term args[] = {a, b};
  return make(op, args, out, combine(shape(a), shape(b)));
}

Term Context::nary(Op op, std::string_view name, std::span<const Term> ts) {
  bool distinct = op == Op::Distinct;
  Sort s = distinct && !ts.empty() ? sort(ts[0]) : Sort::Bool;
  std::vector<Shape> shapes;
  for (Term t : ts) {
    need(t, s, name);
    shapes.push_back(shape(t));
  }
  if (distinct && ts.size() < 2) return bool_val(true);
  if (ts.empty()) return bool_val(op == Op::And);
  if (ts.size() == 1) return ts[0];
  bool ints = distinct && s == Sort::Int;
  return make(op, ts, Sort::Bool, ints ? shape_distinct(shapes) : shape_connective(shapes));
}

Term Context::add(Term a, Term b) {
  return binary(Op::Add, "add", a, b, Sort::Int, Sort::Int, shape_add);
}
Term Context::sub(Term a, Term b) {
  return binary(Op::Sub, "sub", a, b, Sort::Int, Sort::Int, shape_sub);
}
Term Context::lt(Term a, Term b) {
  return binary(Op::Lt, "lt", a, b, Sort::Int, Sort::Bool, shape_compare);
}
Term Context::le(Term a, Term b) {
  return binary(Op::Le, "le", a, b, Sort::Int, Sort::Bool, shape_compare);
}
Term Context::gt(Term a, Term b) {
  return binary(Op::Gt, "gt", a, b, Sort::Int, Sort::Bool, shape_compare);
}
Term Context::ge(Term a, Term b) {
  return binary(Op::Ge, "ge", a, b, Sort::Int, Sort::Bool, shape_compare);
}
Term Context::eq(Term a, Term b) {
  Sort s = sort(a);
  return binary(Op::Eq, "eq", a, b, s, Sort::Bool, s == Sort::Int ? shape_compare : shape_both);
}
Term Context::ne(Term a, Term b) {
  return lnot(eq(a, b));
}
Term Context::implies(Term a, Term b) {
  return binary(Op::Implies, "implies", a, b, Sort::Bool, Sort::Bool, shape_both);
}

Term Context::lnot(Term a) {
  need(a, Sort::Bool, "lnot");
  Term args[] = {a};
  return make(Op::Not, args, Sort::Bool, shape(a));
}

Term Context::land(std::span<const Term> ts) {
  return nary(Op::And, "land", ts);
}
Term Context::lor(std::span<const Term> ts) {
  return nary(Op::Or, "lor", ts);
}
Term Context::distinct(std::span<const Term> ts) {
  return nary(Op::Distinct, "distinct", ts);
}

Term Context::ite(Term c, Term a, Term b) {
  need(c, Sort::Bool, "ite");
  Sort s = sort(a);
  need(b, s, "ite");
  Shape arms = s == Sort::Int ? shape_ite(shape(a), shape(b)) : shape_both(shape(a), shape(b));
  Term args[] = {c, a, b};
  return make(Op::Ite, args, s, shape(c) == Shape::Other ? Shape::Other : arms);
}

bool Context::difference_logic(Term t) const {
  return shape(t) != Shape::Other;
}

}  // namespace syncproof::solver
