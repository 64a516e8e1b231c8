#pragma once
// `syncproof export --json case.sync`: a case as a JSON command stream (docs/STREAM-FORMAT.md),
// the format `syncproof check stream.json` reads back (stream/import.h). Everything the case says
// is kept (declarations, commands in queue order with their labels, flags by name, properties);
// source positions are not.
#include <nlohmann/json.hpp>

#include "model/case.h"

namespace syncproof::stream {

inline constexpr std::string_view kFormatName = "syncproof-stream";
inline constexpr int kFormatVersion = 1;

nlohmann::ordered_json export_case(const model::Case& c);

}  // namespace syncproof::stream
