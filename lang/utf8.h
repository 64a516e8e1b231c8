#pragma once
// UTF-8 validation (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
#include <cstddef>
#include <string_view>

namespace syncproof::lang {

// Bytes of the valid UTF-8 sequence that starts `s` (1 for ASCII), 0 when it is not valid.
size_t utf8_sequence_length(std::string_view s);

// Index of the first byte that is not part of a valid sequence, or npos.
size_t find_invalid_utf8(std::string_view s);

}  // namespace syncproof::lang
