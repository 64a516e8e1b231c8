#include "tools/color.h"

#include <unistd.h>

#include <cstdlib>
#include <string_view>

namespace syncproof::cli {

bool use_color(const std::string& mode, int fd) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  const char* term = std::getenv("TERM");
  if (term && std::string_view(term) == "dumb") return false;
  return ::isatty(fd) == 1;
}

}  // namespace syncproof::cli
