#pragma once
// JSON parsed with nlohmann's SAX interface, remembering where each value starts, so that an
// error about a value of a command stream is reported at its line:col in the file.
#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syncproof::stream {

struct LineCol {
  uint32_t line = 1, col = 1;  // 1-based; col counts bytes
};

class PositionedJson {
 public:
  // nullopt and *error set ("line:col" and the parser's message) when the text is not JSON.
  static std::optional<PositionedJson> parse(std::string_view text, LineCol* error_at,
                                             std::string* error);
  const nlohmann::json& root() const { return root_; }
  // Where the value at a JSON pointer ("/commands/3/SyncFlags") starts; the nearest enclosing
  // value that has a position otherwise.
  LineCol at(std::string pointer) const;
  LineCol at_offset(size_t offset) const;

 private:
  nlohmann::json root_;
  std::map<std::string, size_t> offsets_;
  std::vector<size_t> line_starts_;
};

// "/a/b" + "c" -> "/a/b/c", escaping '~' and '/' (RFC 6901).
std::string child(const std::string& pointer, std::string_view key);
std::string child(const std::string& pointer, size_t index);

}  // namespace syncproof::stream
