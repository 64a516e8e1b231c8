#include "stream/positions.h"

#include <algorithm>
#include <iterator>

namespace syncproof::stream {

using nlohmann::json;

std::string child(const std::string& pointer, std::string_view key) {
  std::string out = pointer + "/";
  for (char ch : key) {
    if (ch == '~')
      out += "~0";
    else if (ch == '/')
      out += "~1";
    else
      out += ch;
  }
  return out;
}

std::string child(const std::string& pointer, size_t index) {
  return pointer + "/" + std::to_string(index);
}

namespace {

// A byte iterator that tells the parser's position: nlohmann reads its input through it, and the
// SAX handler looks at how far it has got.
struct Cursor {
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;
  const char* p = nullptr;
  const char** shared = nullptr;  // the furthest byte read
  reference operator*() const { return *p; }
  Cursor& operator++() {
    ++p;
    if (shared && p > *shared) *shared = p;
    return *this;
  }
  Cursor operator++(int) {
    Cursor old = *this;
    ++*this;
    return old;
  }
  bool operator==(const Cursor& o) const { return p == o.p; }
  bool operator!=(const Cursor& o) const { return p != o.p; }
};

// Builds the DOM like nlohmann's own, and records where each value starts: the first byte after
// the previous token that is not blank, ',' or ':' (the parser has read just past each token).
class Builder : public nlohmann::json_sax<json> {
 public:
  Builder(std::string_view text, const char** read, std::map<std::string, size_t>* offsets)
      : text_(text), read_(read), offsets_(offsets) {}

  json root;
  size_t error_offset = 0;
  std::string error;

  bool null() override { return value(nullptr); }
  bool boolean(bool b) override { return value(b); }
  bool number_integer(number_integer_t v) override { return value(v); }
  bool number_unsigned(number_unsigned_t v) override { return value(v); }
  bool number_float(number_float_t v, const string_t&) override { return value(v); }
  bool string(string_t& s) override { return value(s); }
  bool binary(binary_t& b) override { return value(json::binary(b)); }
  bool start_object(std::size_t) override {
    json* node = place(json::object());
    frames_.push_back({node, path_of_last_});
    mark_read();
    return true;
  }
  bool key(string_t& k) override {
    key_ = k;
    mark_read();
    return true;
  }
  bool end_object() override {
    frames_.pop_back();
    mark_read();
    return true;
  }
  bool start_array(std::size_t) override {
    json* node = place(json::array());
    frames_.push_back({node, path_of_last_});
    mark_read();
    return true;
  }
  bool end_array() override {
    frames_.pop_back();
    mark_read();
    return true;
  }
  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& ex) override {
    // `position` is just past the offending token: point at its first byte.
    error_offset = position >= last_token.size() + 1 ? position - last_token.size() : 0;
    if (last_token.empty() && error_offset) --error_offset;
    error = ex.what();
    return false;
  }

 private:
  struct Frame {
    json* node;
    std::string path;
  };

  size_t token_start() const {
    size_t i = last_;
    while (i < text_.size() &&
           std::string_view(" \t\r\n,:").find(text_[i]) != std::string_view::npos)
      ++i;
    return i;
  }
  void mark_read() { last_ = static_cast<size_t>(*read_ - text_.data()); }

  // Puts a value where the parser is (the root, an array's next element, an object's key).
  json* place(json v) {
    std::string path;
    json* node;
    if (frames_.empty()) {
      root = std::move(v);
      node = &root;
    } else if (frames_.back().node->is_array()) {
      json& arr = *frames_.back().node;
      path = child(frames_.back().path, arr.size());
      arr.push_back(std::move(v));
      node = &arr.back();
    } else {
      path = child(frames_.back().path, key_);
      node = &(*frames_.back().node)[key_];
      *node = std::move(v);
    }
    (*offsets_)[path] = token_start();
    path_of_last_ = path;
    return node;
  }
  bool value(json v) {
    place(std::move(v));
    mark_read();
    return true;
  }

  std::string_view text_;
  const char** read_;
  std::map<std::string, size_t>* offsets_;
  std::vector<Frame> frames_;
  std::string key_, path_of_last_;
  size_t last_ = 0;
};

}  // namespace

std::optional<PositionedJson> PositionedJson::parse(std::string_view text, LineCol* error_at,
                                                    std::string* error) {
  PositionedJson out;
  out.line_starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') out.line_starts_.push_back(i + 1);
  const char* read = text.data();
  Builder b(text, &read, &out.offsets_);
  Cursor first{text.data(), &read}, last{text.data() + text.size(), nullptr};
  const bool ok = json::sax_parse(first, last, &b);
  if (!ok) {
    *error_at = out.at_offset(b.error_offset);
    *error = b.error;
    return std::nullopt;
  }
  out.root_ = std::move(b.root);
  return out;
}

LineCol PositionedJson::at_offset(size_t offset) const {
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const size_t line = static_cast<size_t>(it - line_starts_.begin());
  return {static_cast<uint32_t>(line), static_cast<uint32_t>(offset - line_starts_[line - 1] + 1)};
}

LineCol PositionedJson::at(std::string pointer) const {
  while (true) {
    auto it = offsets_.find(pointer);
    if (it != offsets_.end()) return at_offset(it->second);
    if (pointer.empty()) return {1, 1};
    pointer.resize(pointer.rfind('/'));
  }
}

}  // namespace syncproof::stream
