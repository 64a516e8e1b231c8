#include "viz/viz.h"

#include <fmt/format.h>

#include <filesystem>

#include "model/events.h"
#include "viz/match.h"

namespace syncproof::viz {

std::string picture_stem(const model::Case& c, size_t property) {
  std::string path = std::filesystem::path(c.file).replace_extension().string();
  for (char& ch : path)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.'))
      ch = '_';
  while (!path.empty() && (path.front() == '.' || path.front() == '_')) path.erase(path.begin());
  const model::Property& p = c.properties.at(property);
  return fmt::format("{}-L{}-{}", path.empty() ? "case" : path, p.loc.line,
                     model::to_string(p.kind));
}

Pictures draw(const model::Case& c, const model::ModelConfig& config, size_t property,
              const properties::Violated& v) {
  const model::LoweredProgram p = model::lower(c, config);
  const model::Property& prop = c.properties.at(property);
  std::string title = fmt::format("{}:{}: {}", c.file, prop.loc.line, model::to_string(prop.kind));
  if (!prop.from.empty()) title += fmt::format(" {} -> {}", prop.from, prop.to);
  return {perfetto_json(p, v, title), dot_graph(p, v, property, title)};
}

}  // namespace syncproof::viz
