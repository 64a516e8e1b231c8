#pragma once
// Which terms Z3's difference-logic engine takes, tracked as terms are built, so that a Solver
// under Arith::Auto moves to LIA before Z3 ever sees a non-difference atom. Conservative: a
// term wrongly classed Other only costs speed, and one wrongly classed as difference logic is
// still caught by the Solver when Z3 reports the engine incomplete.
#include <cstdint>
#include <span>

namespace syncproof::solver {

// Int terms: a constant c, an offset x + c, a difference x - y + c, or anything else.
// Bool terms: Const if every atom below is a difference atom, Other if not.
enum class Shape : uint8_t { Const, Offset, Diff, Other };

Shape shape_add(Shape a, Shape b);
Shape shape_sub(Shape a, Shape b);
Shape shape_ite(Shape a, Shape b);      // an Int ite, which Z3 names by a fresh variable
Shape shape_compare(Shape a, Shape b);  // a op b for op in < <= > >= = between Int terms
Shape shape_distinct(std::span<const Shape> ints);
Shape shape_connective(std::span<const Shape> bools);
Shape shape_both(Shape a, Shape b);  // a binary connective

}  // namespace syncproof::solver
