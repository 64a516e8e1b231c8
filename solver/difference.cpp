#include "solver/difference.h"

#include <algorithm>

namespace syncproof::solver {

namespace {
bool simple(Shape s) {
  return s == Shape::Const || s == Shape::Offset;
}
}  // namespace

Shape shape_add(Shape a, Shape b) {
  if (a == Shape::Const) std::swap(a, b);
  if (b != Shape::Const) return Shape::Other;  // neither is a constant
  return a;                                    // c + c, x + c, x - y + c
}

Shape shape_sub(Shape a, Shape b) {
  if (b == Shape::Const) return a;
  if (a == Shape::Offset && b == Shape::Offset) return Shape::Diff;
  return Shape::Other;
}

Shape shape_ite(Shape a, Shape b) {
  return simple(a) && simple(b) ? Shape::Offset : Shape::Other;
}

Shape shape_compare(Shape a, Shape b) {
  bool ok = (simple(a) && simple(b)) || (a == Shape::Diff && b == Shape::Const) ||
            (a == Shape::Const && b == Shape::Diff);
  return ok ? Shape::Const : Shape::Other;
}

Shape shape_distinct(std::span<const Shape> ints) {
  return std::all_of(ints.begin(), ints.end(), simple) ? Shape::Const : Shape::Other;
}

Shape shape_connective(std::span<const Shape> bools) {
  bool ok = std::none_of(bools.begin(), bools.end(), [](Shape s) { return s == Shape::Other; });
  return ok ? Shape::Const : Shape::Other;
}

Shape shape_both(Shape a, Shape b) {
  Shape s[] = {a, b};
  return shape_connective(s);
}

}  // namespace syncproof::solver
