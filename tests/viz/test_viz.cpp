// --trace-out's pictures: the Perfetto trace parses as JSON and holds one slice per trace step
// (its time, line and description) on its queue's engine tracks; the DOT graph parses with
// Graphviz (`dot -Tjson`) and holds a node per step and the red edge of the missing order.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "encode/check.h"
#include "lang/parse.h"
#include "viz/viz.h"

using namespace syncproof;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct Drawn {
  properties::Violated v;
  viz::Pictures pic;
};

Drawn draw_case(const char* rel, size_t property) {
  auto pr = lang::parse_case_file(std::string(SYNCPROOF_SOURCE_DIR) + "/" + rel);
  REQUIRE(!pr.has_errors());
  auto r = encode::check_case(pr.c, {});
  auto* v = std::get_if<properties::Violated>(&r.results.at(property).verdict);
  REQUIRE(v);
  return {*v, viz::draw(pr.c, r.config, property, *v)};
}

// Graphviz's own parser, through `dot -Tjson` (bounded by `timeout`).
json graphviz(const std::string& dot) {
  const fs::path f =
      fs::temp_directory_path() / fmt::format("syncproof-test-viz-{}.dot", ::getpid());
  std::ofstream(f) << dot;
  FILE* p = ::popen(fmt::format("timeout 60 dot -Tjson '{}'", f.string()).c_str(), "r");
  REQUIRE(p);
  std::string out;
  std::array<char, 4096> buf;
  for (size_t n; (n = std::fread(buf.data(), 1, buf.size(), p)) > 0;) out.append(buf.data(), n);
  const int status = ::pclose(p);
  REQUIRE_MESSAGE(WIFEXITED(status), "dot did not finish");
  REQUIRE_MESSAGE(WEXITSTATUS(status) == 0, "dot rejected the graph (is graphviz installed?)");
  return json::parse(out);
}

void check_perfetto(const Drawn& d, const std::set<std::string>& tracks) {
  json doc = json::parse(d.pic.perfetto);
  std::vector<json> slices;
  std::set<std::string> threads;
  for (const json& e : doc["traceEvents"]) {
    if (e["ph"] == "X") slices.push_back(e);
    if (e["ph"] == "M" && e["name"] == "thread_name") threads.insert(e["args"]["name"]);
  }
  REQUIRE(slices.size() == d.v.trace.lines.size());
  for (size_t i = 0; i < slices.size(); ++i) {
    const properties::TraceLine& l = d.v.trace.lines[i];
    CHECK(slices[i]["ts"] == l.time);
    CHECK(slices[i]["args"]["line"] == l.line);
    CHECK(slices[i]["args"]["what"] == l.what);
    CHECK(slices[i]["args"]["command"] == l.command);
  }
  for (const std::string& t : tracks) CHECK(threads.count(t) == 1);
}

void check_dot(const Drawn& d, bool red_edge) {
  json g = graphviz(d.pic.dot);
  std::set<std::string> nodes;
  for (const json& o : g["objects"]) nodes.insert(o["name"].get<std::string>());
  for (size_t i = 1; i <= d.v.trace.lines.size(); ++i)
    CHECK(nodes.count(fmt::format("s{}", i)) == 1);
  size_t red = 0;
  for (const json& e : g.value("edges", json::array())) red += e.value("color", "") == "red";
  CHECK((red > 0) == red_edge);
  CHECK(g["label"].get<std::string>().find(d.v.trace.why.substr(0, 30)) != std::string::npos);
}

}  // namespace

TEST_CASE("a stale GL1 line: the compute queue's tracks and the write->read edge in red") {
  Drawn d = draw_case("cases/same-queue/uav-to-srv-no-gl1.sync", 0);
  check_perfetto(d, {"MEC", "CS waves", "cache operations"});
  check_dot(d, true);
  CHECK(d.pic.dot.find("needs D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE") != std::string::npos);
}

TEST_CASE("graphics: PFP, ME, shader stages and render back-ends get their own tracks") {
  Drawn d = draw_case("cases/indirect/dispatch-writes-args-no-pfp-sync.sync", 0);
  check_perfetto(d, {"PFP", "ME"});
  check_dot(d, true);
}

TEST_CASE("a deadlock: the stuck waits, tied to the explanation") {
  Drawn d = draw_case("cases/deadlock/two-queues-wait-each-other.sync", 0);
  check_perfetto(d, {});
  check_dot(d, true);
}

TEST_CASE("picture names carry the case and the property") {
  auto pr = lang::parse_case(
      "cases/a b/c.sync", "queue q compute\nfence f\non q:\n  Signal(f, 1)\nprove deadlock-free\n");
  REQUIRE(!pr.has_errors());
  CHECK(viz::picture_stem(pr.c, 0) == "cases_a_b_c-L5-deadlock-free");
}
