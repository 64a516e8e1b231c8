#pragma once
// `--color auto|always|never`: whether a stream gets ANSI colours. `always` and `never` say it;
// `auto` (the default) colours a stream only when it is a terminal, NO_COLOR is unset or empty
// (no-color.org) and TERM is not "dumb". The option overrides NO_COLOR, as no-color.org asks.
#include <string>

namespace syncproof::cli {

// mode: "auto", "always" or "never" (validated by add_color, tools/options.h); fd: 1 or 2.
bool use_color(const std::string& mode, int fd);

}  // namespace syncproof::cli
