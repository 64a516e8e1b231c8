#pragma once
// doctest prints a failed comparison of two line lists as their text.
#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace doctest {
template <>
struct StringMaker<std::vector<std::string>> {
  static String convert(const std::vector<std::string>& v) {
    std::string s = "{";
    for (const auto& line : v) s += "\n  \"" + line + "\"";
    return (s + "}").c_str();
  }
};
}  // namespace doctest
