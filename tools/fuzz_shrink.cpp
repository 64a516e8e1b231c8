#include "tools/fuzz_shrink.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace syncproof::cli {

namespace {

bool flag_like(const std::string& w) {
  static const char* kKeep[] = {"NONE",          "D3D12XBOX_FLUSH_RANGE_ALL",
                                "GREATER_EQUAL", "EQUAL",
                                "NOT_EQUAL",     "GREATER",
                                "LESS",          "LESS_EQUAL"};
  for (const char* k : kKeep)
    if (w == k) return false;
  return w.size() > 2 && std::isupper(static_cast<unsigned char>(w[0])) &&
         std::all_of(w.begin(), w.end(), [](char c) {
           return std::isupper(static_cast<unsigned char>(c)) ||
                  std::isdigit(static_cast<unsigned char>(c)) || c == '_';
         });
}

// Calls f(variant) for every candidate of `fc` one step smaller.
template <class F>
bool try_each(FuzzCase& fc, const std::function<bool(const FuzzCase&)>& still, F&& make) {
  for (size_t i = 0;; ++i) {
    FuzzCase cand = fc;
    if (!make(cand, i)) return false;
    if (still(cand)) {
      fc = std::move(cand);
      return true;
    }
  }
}

}  // namespace

std::vector<std::string> line_variants(const std::string& line) {
  std::vector<std::string> out;
  // One element less of a flag word "A | B | C", or NONE for a lone flag.
  static const std::regex kWord(R"([A-Za-z0-9_]+(?: \| [A-Za-z0-9_]+)*)");
  for (auto it = std::sregex_iterator(line.begin(), line.end(), kWord);
       it != std::sregex_iterator(); ++it) {
    const std::string word = it->str();
    std::vector<std::string> parts;
    for (size_t s = 0, e; s <= word.size(); s = e + 3) {
      e = word.find(" | ", s);
      if (e == std::string::npos) e = word.size();
      parts.push_back(word.substr(s, e - s));
    }
    const auto pos = static_cast<size_t>(it->position());
    if (parts.size() == 1) {
      if (flag_like(word))
        out.push_back(line.substr(0, pos) + "NONE" + line.substr(pos + word.size()));
      continue;
    }
    for (size_t k = 0; k < parts.size(); ++k) {
      std::string w;
      for (size_t m = 0; m < parts.size(); ++m)
        if (m != k) w += (w.empty() ? "" : " | ") + parts[m];
      out.push_back(line.substr(0, pos) + w + line.substr(pos + word.size()));
    }
  }
  // One access less.
  static const std::regex kAccess(R"(,? (reads|writes) [A-Za-z0-9_]+ as [a-z-]+( in [a-z]+)?)");
  int accesses = 0;
  for (auto it = std::sregex_iterator(line.begin(), line.end(), kAccess);
       it != std::sregex_iterator(); ++it)
    ++accesses;
  if (accesses > 1)
    for (auto it = std::sregex_iterator(line.begin(), line.end(), kAccess);
         it != std::sregex_iterator(); ++it) {
      auto pos = static_cast<size_t>(it->position());
      std::string v = line.substr(0, pos) + line.substr(pos + it->str().size());
      // Dropping the first access leaves "Draw , writes ...": drop the comma instead.
      v = std::regex_replace(v, std::regex(R"((Draw|Dispatch|DispatchX\([^)]*\)|,)\s*, )"), "$1 ");
      out.push_back(v);
    }
  // The whole-memory range.
  static const std::regex kRange(R"(, ([A-Za-z0-9_]+), ([A-Za-z0-9_]+)\)$)");
  std::smatch m;
  const bool sync = line.find("SyncTopOfPipeX(") != std::string::npos ||
                    line.find("SyncBottomOfPipeX(") != std::string::npos;
  if (sync && std::regex_search(line, m, kRange) && m[2].str() != "D3D12XBOX_FLUSH_RANGE_ALL")
    out.push_back(line.substr(0, static_cast<size_t>(m.position())) +
                  ", 0, D3D12XBOX_FLUSH_RANGE_ALL)");
  return out;
}

FuzzCase shrink(FuzzCase fc, const std::function<bool(const FuzzCase&)>& still) {
  for (bool changed = true; changed;) {
    changed = false;
    changed |= try_each(fc, still, [](FuzzCase& c, size_t i) {
      if (c.props.size() <= 1 || i >= c.props.size()) return false;
      c.props.erase(c.props.begin() + static_cast<long>(i));
      return true;
    });
    changed |= try_each(fc, still, [](FuzzCase& c, size_t i) {
      if (c.queues.size() <= 1 || i >= c.queues.size()) return false;
      c.queues.erase(c.queues.begin() + static_cast<long>(i));
      return true;
    });
    changed |= try_each(fc, still, [](FuzzCase& c, size_t i) {
      for (auto& q : c.queues) {
        if (i < q.commands.size()) {
          q.commands.erase(q.commands.begin() + static_cast<long>(i));
          return true;
        }
        i -= q.commands.size();
      }
      return false;
    });
    changed |= try_each(fc, still, [](FuzzCase& c, size_t i) {
      if (i < c.header.size()) {
        c.header.erase(c.header.begin() + static_cast<long>(i));
        return true;
      }
      i -= c.header.size();
      if (i >= c.decls.size()) return false;
      c.decls.erase(c.decls.begin() + static_cast<long>(i));
      return true;
    });
    changed |= try_each(fc, still, [](FuzzCase& c, size_t i) {
      for (auto& q : c.queues)
        for (auto& line : q.commands) {
          auto vs = line_variants(line);
          if (i < vs.size()) {
            line = vs[i];
            return true;
          }
          i -= vs.size();
        }
      return false;
    });
  }
  return fc;
}

}  // namespace syncproof::cli
