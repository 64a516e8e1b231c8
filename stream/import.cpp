#include "stream/import.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>

#include "stream/export.h"
#include "stream/positions.h"

namespace syncproof::stream {

using nlohmann::json;

namespace {

// Which JSON value wrote columns [begin, end) of a line (0-based): an argument, an access.
struct Segment {
  size_t begin, end;
  std::string pointer;
};

struct Line {
  std::string text;
  std::string origin;  // JSON pointer of the object that produced it
  std::vector<Segment> segments = {};
};

bool identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char ch : s)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.' || ch == '-'))
      return false;
  return s.find("->") == std::string_view::npos;
}

bool number_token(std::string_view s) {
  if (s.starts_with("0x") || s.starts_with("0X")) {
    s.remove_prefix(2);
    return !s.empty() && s.find_first_not_of("0123456789abcdefABCDEF") == std::string_view::npos;
  }
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// A string from the stream shown in a message: quoted, cut to a readable length, control
// characters escaped as JSON writes them (a message is one line).
std::string shown(std::string_view s) {
  std::string out;
  for (char ch : s.substr(0, 60)) {
    const auto u = static_cast<unsigned char>(ch);
    if (ch == '\n')
      out += "\\n";
    else if (ch == '\t')
      out += "\\t";
    else if (u < 0x20 || u == 0x7F)
      out += fmt::format("\\u{:04x}", u);
    else
      out += ch;
  }
  return "'" + out + (s.size() > 60 ? "...'" : "'");
}

class Importer {
 public:
  Importer(const PositionedJson& doc, lang::ParseResult& out) : doc_(doc), out_(out) {}

  std::vector<Line> lines;
  bool failed = false;

  void run() {
    const json& root = doc_.root();
    if (!root.is_object()) return error("", "a command stream is a JSON object");
    if (root.contains("format") &&
        (!root["format"].is_string() || root["format"].get<std::string>() != kFormatName))
      return error("/format", fmt::format("\"format\" must be \"{}\"", kFormatName));
    if (root.contains("version") &&
        (!root["version"].is_number_integer() || root["version"].get<int>() != kFormatVersion))
      return error("/version", fmt::format("unsupported stream version (this syncproof reads {})",
                                           kFormatVersion));
    for (const auto& item : root.items()) {
      static const char* known[] = {"format", "version",  "title",     "profile",   "assume",
                                    "target", "targets",  "queues",    "resources", "fences",
                                    "labels", "commands", "properties"};
      const std::string& k = item.key();
      if (std::find_if(std::begin(known), std::end(known), [&](const char* n) { return k == n; }) ==
          std::end(known))
        error(child("", k), fmt::format("unknown field \"{}\"", k));
    }
    if (root.contains("title")) {
      auto t = str("/title");
      if (t) lines.push_back({"case " + quoted(*t), "/title"});
    }
    if (root.contains("profile"))
      if (auto p = ident("/profile")) lines.push_back({"profile " + *p, "/profile"});
    if (root.contains("target"))
      if (auto t = ident("/target")) lines.push_back({"target " + *t, "/target"});
    each("/assume", [&](const std::string& at) {
      auto a = str(at);
      if (!a) return;
      const bool sign = !a->empty() && ((*a)[0] == '+' || (*a)[0] == '-');
      const std::string id = sign ? a->substr(1) : *a;
      if (!identifier(id)) return error(at, fmt::format("{} is not an assumption ID", shown(*a)));
      lines.push_back({fmt::format("assume {}{}", sign ? (*a)[0] : '+', id), at});
    });
    each("/targets", [&](const std::string& at) {
      auto k = ident(child(at, "key")), v = ident(child(at, "value"));
      if (k && v) lines.push_back({fmt::format("target {} {}", *k, *v), at});
    });
    each("/queues", [&](const std::string& at) {
      auto n = ident(child(at, "name")), t = ident(child(at, "type"));
      if (n && t) lines.push_back({fmt::format("queue {} {}", *n, *t), at});
    });
    each("/resources", [&](const std::string& at) {
      auto n = ident(child(at, "name")), k = ident(child(at, "kind"));
      auto a = num(child(at, "address")), s = num(child(at, "size"));
      bool compressed = false;
      if (has(child(at, "compressed"))) compressed = boolean(child(at, "compressed"));
      std::string tracked;  // `state STATES` / `layout LAYOUT`
      for (const char* key : {"state", "layout"})
        if (has(child(at, key))) {
          auto w = d3d12_word(child(at, key));
          if (!w) return;
          tracked += fmt::format(" {} {}", key, *w);
        }
      if (n && k && a && s)
        lines.push_back({fmt::format("{} {} {} {}{}{}", *k, *n, *a, *s,
                                     compressed ? " compressed" : "", tracked),
                         at});
    });
    each("/fences", [&](const std::string& at) {
      if (auto n = ident(child(at, "name"))) lines.push_back({"fence " + *n, at});
    });
    each("/labels", [&](const std::string& at) {
      auto n = ident(child(at, "name")), a = num(child(at, "address"));
      if (n && a) lines.push_back({fmt::format("label {} {}", *n, *a), at});
    });
    std::string block;
    each("/commands", [&](const std::string& at) {
      auto q = ident(child(at, "queue"));
      segments_.clear();
      auto text = command(at);
      if (!q || !text) return;
      if (*q != block) lines.push_back({fmt::format("on {}:", *q), child(at, "queue")}), block = *q;
      for (Segment& sg : segments_) sg.begin += 2, sg.end += 2;
      lines.push_back({"  " + *text, at, std::move(segments_)});
    });
    each("/properties", [&](const std::string& at) {
      if (auto p = property(at)) lines.push_back({*p, at});
    });
  }

 private:
  void error(const std::string& at, std::string msg) {
    const LineCol lc = doc_.at(at);
    out_.diags.push_back({model::Severity::Error, {lc.line, lc.col}, std::move(msg), 1, false});
    failed = true;
  }

  const json* get(const std::string& at) const {
    const json* j = &doc_.root();
    try {
      j = &doc_.root().at(json::json_pointer(at));
    } catch (const json::exception&) {
      return nullptr;
    }
    return j;
  }
  bool has(const std::string& at) const { return get(at) != nullptr; }

  // The parent object, for "missing field" errors.
  std::string parent(const std::string& at) const { return at.substr(0, at.rfind('/')); }
  std::string field(const std::string& at) const { return at.substr(at.rfind('/') + 1); }

  const json* need(const std::string& at) {
    const json* j = get(at);
    if (!j) error(parent(at), fmt::format("missing field \"{}\"", field(at)));
    return j;
  }

  std::optional<std::string> str(const std::string& at) {
    const json* j = need(at);
    if (!j) return std::nullopt;
    if (!j->is_string()) {
      error(at, fmt::format("\"{}\" must be a string", field(at)));
      return std::nullopt;
    }
    return j->get<std::string>();
  }

  std::optional<std::string> ident(const std::string& at) {
    auto s = str(at);
    if (s && !identifier(*s)) {
      error(at, fmt::format("\"{}\": {} is not a name ([A-Za-z_][A-Za-z0-9_.-]*)", field(at),
                            shown(*s)));
      return std::nullopt;
    }
    return s;
  }

  bool boolean(const std::string& at) {
    const json* j = get(at);
    if (!j->is_boolean()) {
      error(at, fmt::format("\"{}\" must be true or false", field(at)));
      return false;
    }
    return j->get<bool>();
  }

  // A number: a JSON integer, or a string holding a decimal or 0x number.
  std::optional<std::string> num(const std::string& at) {
    const json* j = need(at);
    if (!j) return std::nullopt;
    if (j->is_number_unsigned() || (j->is_number_integer() && j->get<int64_t>() >= 0))
      return fmt::format("{}", j->get<uint64_t>());
    if (j->is_string() && number_token(j->get<std::string>())) return j->get<std::string>();
    error(at, fmt::format("\"{}\" must be a non-negative integer or a string like \"0x1000\"",
                          field(at)));
    return std::nullopt;
  }

  // A name or a number (a Destination, a SizeInBytes).
  std::optional<std::string> name_or_num(const std::string& at) {
    const json* j = need(at);
    if (!j) return std::nullopt;
    if (j->is_string() && identifier(j->get<std::string>())) return j->get<std::string>();
    return num(at);
  }

  // A flag word: a number, a string "A | B", or an array of names and numbers.
  std::optional<std::string> flags(const std::string& at) {
    const json* j = need(at);
    if (!j) return std::nullopt;
    std::vector<std::string> items;
    if (j->is_number_integer()) {
      if (auto n = num(at)) return *n;
      return std::nullopt;
    }
    if (j->is_string()) {
      std::string s = j->get<std::string>();
      for (size_t start = 0; start <= s.size();) {
        size_t bar = s.find('|', start);
        if (bar == std::string::npos) bar = s.size();
        std::string item = s.substr(start, bar - start);
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        items.push_back(item);
        start = bar + 1;
      }
    } else if (j->is_array()) {
      for (size_t i = 0; i < j->size(); ++i) {
        const json& e = (*j)[i];
        if (e.is_string())
          items.push_back(e.get<std::string>());
        else if (e.is_number_unsigned() || (e.is_number_integer() && e.get<int64_t>() >= 0))
          items.push_back(fmt::format("0x{:X}", e.get<uint64_t>()));
        else
          items.push_back("");
      }
      if (items.empty()) items.push_back("NONE");
    } else {
      error(at, fmt::format("\"{}\" must be a flag name, a number, \"A | B\" or an array of them",
                            field(at)));
      return std::nullopt;
    }
    for (size_t i = 0; i < items.size(); ++i)
      if (!identifier(items[i]) && !number_token(items[i])) {
        error(j->is_array() ? child(at, i) : at,
              fmt::format("\"{}\": {} is not a flag name or number", field(at), shown(items[i])));
        return std::nullopt;
      }
    return fmt::format("{}", fmt::join(items, " | "));
  }

  // A d3d12.h word (a state, sync, access or layout): as a flag word, [] being 0.
  std::optional<std::string> d3d12_word(const std::string& at) {
    const json* j = need(at);
    if (!j) return std::nullopt;
    if (j->is_array() && j->empty()) return "0";
    return flags(at);
  }

  void each(const std::string& at, const std::function<void(const std::string&)>& f) {
    const json* j = get(at);
    if (!j) return;
    if (!j->is_array()) return error(at, fmt::format("\"{}\" must be an array", field(at)));
    for (size_t i = 0; i < j->size(); ++i) {
      if ((at == "/assume") || (*j)[i].is_object())
        f(child(at, i));
      else
        error(child(at, i), fmt::format("each of \"{}\" is an object", field(at)));
    }
  }

  static std::string quoted(std::string_view s) {
    std::string out = "\"";
    for (char ch : s) {
      if (ch == '"' || ch == '\\') out += '\\';
      out += ch;
    }
    return out + "\"";
  }

  // The accesses as "reads X as srv, writes Y as uav", written after `prefix` (the text so far):
  // each access becomes a segment of the line.
  std::optional<std::string> accesses(const std::string& at, bool required, size_t prefix) {
    const json* j = get(at);
    if (!j) {
      if (required) error(parent(at), "missing field \"accesses\"");
      return required ? std::nullopt : std::optional<std::string>("");
    }
    if (!j->is_array()) {
      error(at, "\"accesses\" must be an array");
      return std::nullopt;
    }
    std::string out;
    bool ok = true;
    for (size_t i = 0; i < j->size(); ++i) {
      const std::string a = child(at, i);
      auto dir = ident(child(a, "access")), res = ident(child(a, "resource")),
           as = ident(child(a, "as"));
      std::optional<std::string> stage;
      if (has(child(a, "stage"))) stage = ident(child(a, "stage"));
      if (!dir || !res || !as || (has(child(a, "stage")) && !stage)) {
        ok = false;
        continue;
      }
      if (!out.empty()) out += ", ";
      const std::string part =
          fmt::format("{} {} as {}{}", *dir, *res, *as, stage ? " in " + *stage : "");
      segments_.push_back({prefix + out.size(), prefix + out.size() + part.size(), a});
      out += part;
    }
    if (!ok) return std::nullopt;
    return out;
  }

  std::optional<std::string> command(const std::string& at) {
    auto api = ident(child(at, "api"));
    if (!api) return std::nullopt;
    std::string label;
    if (has(child(at, "label"))) {
      auto l = ident(child(at, "label"));
      if (!l) return std::nullopt;
      label = *l + ": ";
    }
    const auto f = [&](const char* k) { return child(at, k); };
    // API(arg, arg, ...), each argument a segment pointing at its field.
    using Arg = std::pair<const char*, std::optional<std::string>>;
    const auto call = [&](const std::vector<Arg>& args) -> std::optional<std::string> {
      std::string text = label + *api + "(";
      bool first = true;
      for (const auto& [name, value] : args) {
        if (!value) return std::nullopt;
        if (!first) text += ", ";
        first = false;
        segments_.push_back({text.size(), text.size() + value->size(), child(at, name)});
        text += *value;
      }
      return text + ")";
    };
    const std::string& a = *api;
    if (a == "SyncTopOfPipeX" || a == "SyncBottomOfPipeX")
      return call({{"SyncFlags", flags(f("SyncFlags"))},
                   {"ControlFlags", flags(f("ControlFlags"))},
                   {"BaseAddress", name_or_num(f("BaseAddress"))},
                   {"SizeInBytes", name_or_num(f("SizeInBytes"))}});
    if (a == "Write32BitValueBottomOfPipe2X" || a == "Write64BitValueBottomOfPipe2X")
      return call({{"Destination", name_or_num(f("Destination"))},
                   {"Value", num(f("Value"))},
                   {"SyncFlags", flags(f("SyncFlags"))},
                   {"ControlFlags", flags(f("ControlFlags"))},
                   {"WriteFlags", flags(f("WriteFlags"))}});
    if (a == "Wait32BitValueX" || a == "Wait64BitValueX")
      return call({{"Destination", name_or_num(f("Destination"))},
                   {"Comparison", ident(f("Comparison"))},
                   {"Value", num(f("Value"))}});
    if (a == "Signal" || a == "Wait")
      return call({{"Fence", ident(f("Fence"))}, {"Value", num(f("Value"))}});
    if (a == "ResourceBarrier" || a == "Barrier") {
      // The fields of D3D12_RESOURCE_BARRIER / D3D12_*_BARRIER, in the case language's order.
      auto type = ident(f("Type"));
      if (!type) return std::nullopt;
      const std::string_view t = *type;
      auto is = [&](std::string_view form) {
        return t == form || (t.size() > form.size() && t.ends_with(form) &&
                             t[t.size() - form.size() - 1] == '_');
      };
      std::vector<Arg> args = {{"Type", type}};
      auto word = [&](const char* k) { args.push_back({k, d3d12_word(f(k))}); };
      auto res = [&](const char* k) { args.push_back({k, ident(f(k))}); };
      auto opt = [&](const char* k) {
        if (has(f(k))) word(k);
      };
      if (a == "ResourceBarrier" && is("TRANSITION")) {
        res("Resource"), word("StateBefore"), word("StateAfter"), opt("Flags");
      } else if (a == "ResourceBarrier" && is("UAV")) {
        res("Resource");
      } else if (a == "ResourceBarrier" && is("ALIASING")) {
        res("ResourceBefore"), res("ResourceAfter");
      } else if (a == "Barrier" && (is("GLOBAL") || is("BUFFER") || is("TEXTURE"))) {
        if (!is("GLOBAL")) res("Resource");
        word("SyncBefore"), word("SyncAfter"), word("AccessBefore"), word("AccessAfter");
        if (is("TEXTURE")) word("LayoutBefore"), word("LayoutAfter"), opt("Flags");
      } else {
        error(f("Type"),
              fmt::format("unknown {} type {} (see docs/STREAM-FORMAT.md)", a, shown(*type)));
        return std::nullopt;
      }
      return call(args);
    }
    if (a == "Signal2X" || a == "WaitX") {
      if (has(f("SyncFlags")))
        return call({{"Fence", ident(f("Fence"))},
                     {"Value", num(f("Value"))},
                     {"SyncFlags", flags(f("SyncFlags"))}});
      return call({{"Fence", ident(f("Fence"))}, {"Value", num(f("Value"))}});
    }
    static const char* work[] = {"Draw",
                                 "DrawInstanced",
                                 "DrawIndexedInstanced",
                                 "Dispatch",
                                 "DispatchX",
                                 "ExecuteIndirect",
                                 "CopyBufferRegion",
                                 "CopyResource",
                                 "CopyTextureRegion",
                                 "Host"};
    if (std::find_if(std::begin(work), std::end(work), [&](const char* n) { return a == n; }) ==
        std::end(work)) {
      error(f("api"), fmt::format("unknown API {} (see docs/STREAM-FORMAT.md)", shown(a)));
      return std::nullopt;
    }
    std::string text = label + a;
    if (a == "DispatchX") {
      auto df = flags(f("DispatchFlags"));
      if (!df) return std::nullopt;
      segments_.push_back({text.size() + 1, text.size() + 1 + df->size(), f("DispatchFlags")});
      text += "(" + *df + ")";
    }
    if (has(f("wave32")) && boolean(f("wave32"))) text += " [wave32]";
    if (has(f("pfp")) && boolean(f("pfp"))) text += " [pfp]";
    if (a == "ExecuteIndirect") {
      if (has(f("indirect"))) {
        auto k = ident(f("indirect"));
        if (!k) return std::nullopt;
        text += " " + *k;
      }
      auto args = ident(f("ArgumentBuffer"));
      if (!args) return std::nullopt;
      text += " args ";
      segments_.push_back({text.size(), text.size() + args->size(), f("ArgumentBuffer")});
      text += *args;
      auto acc = accesses(f("accesses"), false, text.size() + 2);
      if (!acc) return std::nullopt;
      if (!acc->empty()) text += ", " + *acc;
      return text;
    }
    auto acc = accesses(f("accesses"), true, text.size() + 1);
    if (!acc) return std::nullopt;
    if (!acc->empty()) text += " " + *acc;
    return text;
  }

  std::optional<std::string> property(const std::string& at) {
    auto expect = ident(child(at, "expect")), kind = ident(child(at, "kind"));
    if (!expect || !kind) return std::nullopt;
    std::string text = *expect + " " + *kind;
    if (has(child(at, "from")) || has(child(at, "to"))) {
      auto from = ident(child(at, "from")), to = ident(child(at, "to"));
      if (!from || !to) return std::nullopt;
      text += fmt::format(" {} -> {}", *from, *to);
    }
    if (has(child(at, "on"))) {
      auto on = ident(child(at, "on"));
      if (!on) return std::nullopt;
      text += " on " + *on;
    }
    if (has(child(at, "missing"))) {
      const json* m = get(child(at, "missing"));
      if (!m->is_array()) {
        error(child(at, "missing"), "\"missing\" must be an array of flag names or labels");
        return std::nullopt;
      }
      std::vector<std::string> names;
      for (size_t i = 0; i < m->size(); ++i)
        if (auto n = ident(child(child(at, "missing"), i))) names.push_back(*n);
      if (names.size() != m->size()) return std::nullopt;
      if (!names.empty()) text += fmt::format(" missing {}", fmt::join(names, ", "));
    }
    return text;
  }

  const PositionedJson& doc_;
  lang::ParseResult& out_;
  std::vector<Segment> segments_;  // of the command being written
};

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      if (start < text.size()) out.emplace_back(text.substr(start));
      break;
    }
    std::string l(text.substr(start, nl - start));
    if (!l.empty() && l.back() == '\r') l.pop_back();
    out.push_back(std::move(l));
    start = nl + 1;
  }
  return out;
}

}  // namespace

lang::ParseResult import_text(const std::string& file, std::string_view text) {
  lang::ParseResult out;
  out.c.file = file;
  out.c.lines = split_lines(text);
  LineCol err_at;
  std::string err;
  auto doc = PositionedJson::parse(text, &err_at, &err);
  if (!doc) {
    // nlohmann's message says "[json.exception.parse_error.101] parse error at line 1, column
    // 2: syntax error while parsing ..."; the location is ours, the reason is its.
    const size_t colon = err.find(": ");
    out.diags.push_back(
        {model::Severity::Error,
         {err_at.line, err_at.col},
         "invalid JSON: " + (colon == std::string::npos ? err : err.substr(colon + 2)),
         1,
         false});
    return out;
  }
  Importer im(*doc, out);
  im.run();
  if (im.failed) {
    lang::sort_diagnostics(out.diags);
    return out;
  }
  std::string sync;
  for (const Line& l : im.lines) sync += l.text + "\n";
  lang::ParseResult pr = lang::parse_case(file, sync);
  // Synthetic line N came from the JSON object at im.lines[N-1].origin, and its column from the
  // value whose segment holds it (an argument, an access), if any.
  const auto where = [&](model::SrcLoc& loc) {
    if (loc.line == 0 || loc.line > im.lines.size()) return;
    const Line& l = im.lines[loc.line - 1];
    std::string pointer = l.origin;
    for (const Segment& sg : l.segments)
      if (loc.col >= 1 && sg.begin <= loc.col - 1 && loc.col - 1 < sg.end) pointer = sg.pointer;
    const LineCol lc = doc->at(pointer);
    loc = {lc.line, lc.col};
  };
  for (lang::Diagnostic d : pr.diags) {
    where(d.loc);
    d.length = 1;
    out.diags.push_back(std::move(d));
  }
  lang::sort_diagnostics(out.diags);
  model::Case c = std::move(pr.c);
  where(c.profile_loc);
  for (auto& a : c.assumptions) where(a.loc);
  for (auto& r : c.resources) where(r.loc);
  for (auto& f : c.fences) where(f.loc);
  for (auto& l : c.labels) where(l.loc);
  for (auto& q : c.queues) {
    where(q.loc);
    for (auto& cmd : q.commands) {
      where(cmd.loc);
      if (auto* w = std::get_if<model::WorkCmd>(&cmd.body))
        for (auto& a : w->accesses) where(a.loc);
    }
  }
  for (auto& p : c.properties) where(p.loc);
  c.file = file;
  c.lines = std::move(out.c.lines);
  out.c = std::move(c);
  return out;
}

lang::ParseResult import_file(const std::string& path, uint64_t max_bytes) {
  // Read like a case file (lang/source_file.h): stat first, regular files only, capped.
  lang::SourceText src = lang::read_source(path, max_bytes);
  if (src.problem == lang::FileProblem::None)
    return import_text(lang::display_path(path), src.text);
  lang::ParseResult out;
  out.c.file = lang::display_path(path);
  lang::Diagnostic d{model::Severity::Error, {}, std::move(src.message), 1, true};
  d.rejected = src.problem == lang::FileProblem::Rejected;
  out.diags.push_back(std::move(d));
  return out;
}

}  // namespace syncproof::stream
