// `syncproof encode` / `syncproof decode`: exact output, error messages and exit codes.
#include <doctest/doctest.h>

#include <iostream>
#include <sstream>

#include "tools/commands.h"
#include "tools/exit_codes.h"
#include "tools/flag_commands.h"

using namespace syncproof::cli;

namespace {

struct Run {
  int rc;
  std::string out, err;
};

Run encode_cli(std::vector<std::string> args) {
  std::ostringstream out, err;
  int rc = run_encode(args, out, err);
  return {rc, out.str(), err.str()};
}

Run decode_cli(DecodeOptions opts) {
  std::ostringstream out, err;
  int rc = run_decode(opts, out, err);
  return {rc, out.str(), err.str()};
}

std::string first_line(const std::string& s) {
  return s.substr(0, s.find('\n'));
}

constexpr int kOk = static_cast<int>(Exit::Ok);
constexpr int kWarnings = static_cast<int>(Exit::Warnings);
constexpr int kInput = static_cast<int>(Exit::InputError);
constexpr int kUsage = static_cast<int>(Exit::Usage);

// Runs the real CLI11 binding with argv, capturing std::cout / std::cerr.
Run run_app(std::vector<const char*> argv) {
  argv.insert(argv.begin(), "syncproof");
  CLI::App app{"test"};
  app.require_subcommand(1);
  int rc = -1;
  const Command commands[] = {register_encode(app), register_decode(app)};
  std::ostringstream out, err;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
    for (const Command& c : commands)
      if (c.app->parsed()) rc = c.run();
  } catch (const CLI::ParseError&) {
    rc = kUsage;
  }
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  return {rc, out.str(), err.str()};
}

}  // namespace

TEST_CASE("encode: names joined by '|' or split across arguments, with or without prefix") {
  const std::string expected =
      "0x0000C000\n"
      "  0x00004000  D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE\n"
      "  0x00008000  D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK\n";
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"GL2_INVALIDATE|GL2_WRITEBACK"},
           {"GL2_INVALIDATE | GL2_WRITEBACK"},
           {"GL2_INVALIDATE", "|", "GL2_WRITEBACK"},
           {"GL2_INVALIDATE", "GL2_WRITEBACK"},
           {"D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE|", "|D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK"},
           {"GL2_INVALIDATE|GL2_WRITEBACK|GL2_INVALIDATE"}}) {
    CAPTURE(args.front());
    const Run r = encode_cli(args);
    CHECK(r.rc == kOk);
    CHECK(r.out == expected);
    CHECK(r.err.empty());
  }
}

TEST_CASE("encode: a single name prints only its value") {
  CHECK(encode_cli({"IDLE"}).out == "0x80000000\n");
  CHECK(encode_cli({"D3D12XBOX_SYNC_FLAG_GL0_INVALIDATE"}).out == "0x00000100\n");
  CHECK(encode_cli({"NONE"}).out == "0x00000000\n");
  CHECK(encode_cli({"GREATER_EQUAL"}).out == "0x00000007\n");
  CHECK(encode_cli({"D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE"}).out == "0x00000000\n");
  CHECK(encode_cli({"D3D12XBOX_SYNC_CONTROL_FLAG_NONE"}).rc == kOk);
}

TEST_CASE("encode: other families") {
  const Run r = encode_cli({"W32|ENABLE_OUT_OF_ORDER"});
  CHECK(r.rc == kOk);
  CHECK(first_line(r.out) == "0x00008040");
  CHECK(r.out.find("  0x00000040  D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER\n") !=
        std::string::npos);
  CHECK(first_line(encode_cli({"NONE", "W32"}).out) == "0x00008000");  // NONE fits any family
}

TEST_CASE("encode: notes about MARGIN fields") {
  CHECK(encode_cli({"ICACHE_INVALIDATE|ICACHE_RANGE"}).out ==
        "0x00000003\n"
        "  0x00000001  D3D12XBOX_SYNC_FLAG_ICACHE_INVALIDATE\n"
        "  0x00000002  D3D12XBOX_SYNC_FLAG_ICACHE_RANGE\n"
        "note: D3D12XBOX_SYNC_FLAG_ICACHE_INVALIDATE | D3D12XBOX_SYNC_FLAG_ICACHE_RANGE is the "
        "value of D3D12XBOX_SYNC_FLAG_ICACHE_MARGIN: only the first and last cache line of the "
        "range are invalidated\n");
  CHECK(encode_cli({"ICACHE_MARGIN"}).out == "0x00000003\n");
  CHECK(encode_cli({"ICACHE_MARGIN|ICACHE_INVALIDATE"}).out.find("note:") == std::string::npos);
  CHECK(encode_cli({"TOP_MASK"}).out ==
        "0xE700DFFF\n"
        "note: D3D12XBOX_SYNC_FLAG_TOP_MASK selects MARGIN (first and last line only) in the "
        "instruction-cache, GL1 range and GL2 range fields\n");
  CHECK(encode_cli({"BOP_COMPUTE_MASK"}).out ==
        "0x8010DF30\n"
        "note: D3D12XBOX_SYNC_FLAG_BOP_COMPUTE_MASK selects MARGIN (first and last line only) in "
        "the GL2 range field\n");
}

TEST_CASE("encode: unknown names get a suggestion") {
  Run r = encode_cli({"GL1_INVALIDTE"});
  CHECK(r.rc == kInput);
  CHECK(r.out.empty());
  CHECK(r.err ==
        "syncproof encode: unknown flag 'GL1_INVALIDTE'; did you mean "
        "D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE?\n");
  CHECK(encode_cli({"idle"}).err ==
        "syncproof encode: unknown flag 'idle'; did you mean D3D12XBOX_SYNC_FLAG_IDLE?\n");
  CHECK(encode_cli({"W32", "ENABLE_OUT_OF_ORDR"}).err ==
        "syncproof encode: unknown flag 'ENABLE_OUT_OF_ORDR'; did you mean "
        "D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER?\n");
  r = encode_cli({"QQQQ_WWWW_EEEE_RRRR"});
  CHECK(r.rc == kInput);
  CHECK(r.err == "syncproof encode: unknown flag 'QQQQ_WWWW_EEEE_RRRR'\n");
  r = encode_cli({"IDLE|BOGUS_ONE|BOGUS_TWO"});
  CHECK(r.rc == kInput);
  CHECK(r.err.find("'BOGUS_ONE'") != std::string::npos);
  CHECK(r.err.find("'BOGUS_TWO'") != std::string::npos);
}

TEST_CASE("encode: names without a published value, mixed families, comparisons") {
  Run r = encode_cli({"GCR_SEQUENCE_FORWARD"});
  CHECK(r.rc == kInput);
  CHECK(r.out.empty());
  CHECK(r.err ==
        "syncproof encode: the seeds publish no numeric value for "
        "D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_FORWARD (case files accept it by name only)\n");
  r = encode_cli({"GPU_TIMESTAMP"});
  CHECK(r.rc == kInput);
  CHECK(r.err ==
        "syncproof encode: the seeds publish no numeric value for "
        "D3D12XBOX_WRITE_VALUE_BOP_FLAG_GPU_TIMESTAMP (case files accept it by name only)\n");
  r = encode_cli({"IDLE|W32"});
  CHECK(r.rc == kInput);
  CHECK(r.err ==
        "syncproof encode: D3D12XBOX_SYNC_FLAG_IDLE (D3D12XBOX_SYNC_FLAGS) and "
        "D3D12XBOX_DISPATCH_FLAG_W32 (D3D12XBOX_DISPATCH_FLAGS) are of different enumerations; "
        "encode each enumeration separately\n");
  r = encode_cli({"LESS|EQUAL"});
  CHECK(r.rc == kInput);
  CHECK(r.err ==
        "syncproof encode: D3D12_COMPARISON_FUNC is an enumeration, not a set of flags: give one "
        "name\n");
  r = encode_cli({" | "});
  CHECK(r.rc == kUsage);
  CHECK(r.err == "syncproof encode: no flag names given\n");
}

TEST_CASE("parse_flag_word") {
  std::string e;
  CHECK(parse_flag_word("0x1F", e) == 31u);
  CHECK(parse_flag_word("0X1f", e) == 31u);
  CHECK(parse_flag_word("31", e) == 31u);
  CHECK(parse_flag_word("0", e) == 0u);
  CHECK(parse_flag_word("0xFFFFFFFF", e) == 0xFFFFFFFFu);
  CHECK(parse_flag_word("4294967295", e) == 0xFFFFFFFFu);
  CHECK(parse_flag_word("4294967296", e) == std::nullopt);
  CHECK(e == "'4294967296' does not fit a 32-bit flag word");
  CHECK(parse_flag_word("0x100000000", e) == std::nullopt);
  CHECK(e == "'0x100000000' does not fit a 32-bit flag word");
  CHECK(parse_flag_word("0xFFFFFFFFFFFFFFFFFFFF", e) == std::nullopt);
  CHECK(e == "'0xFFFFFFFFFFFFFFFFFFFF' does not fit a 32-bit flag word");
  for (const char* bad : {"", "0x", "abc", "-1", "12a", "0x1G", " 1", "IDLE"}) {
    CAPTURE(bad);
    CHECK(parse_flag_word(bad, e) == std::nullopt);
    CHECK(e == std::string("'") + bad + "' is not a number (expected hex 0x... or decimal)");
  }
}

TEST_CASE("decode: one line per flag and field") {
  Run r = decode_cli({.value = "0x80004300"});
  CHECK(r.rc == kOk);
  CHECK(r.out ==
        "D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE (alias D3D12XBOX_SYNC_FLAG_GL0_INVALIDATE)\n"
        "D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE\n"
        "D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE\n"
        "D3D12XBOX_SYNC_FLAG_IDLE\n");
  CHECK(decode_cli({.value = "3"}).out ==
        "instruction-cache selector = MARGIN (first and last line only) [= "
        "D3D12XBOX_SYNC_FLAG_ICACHE_MARGIN; note: ICACHE_INVALIDATE | ICACHE_RANGE is this same "
        "value]\n");
  r = decode_cli({.value = "0x8010DF30"});
  CHECK(r.rc == kOk);
  CHECK(r.out.ends_with("note: 0x8010DF30 is the value of D3D12XBOX_SYNC_FLAG_BOP_COMPUTE_MASK\n"));
  CHECK(r.out.find("GL2 range selector = MARGIN") != std::string::npos);
  CHECK(decode_cli({.value = "0"}).out == "D3D12XBOX_SYNC_FLAG_NONE\n");
}

TEST_CASE("decode: invalid words") {
  Run r = decode_cli({.value = "0x2000"});
  CHECK(r.rc == kInput);
  CHECK(r.out == "unknown bits 0x00002000\n");
  r = decode_cli({.value = "4"});
  CHECK(r.rc == kInput);
  CHECK(r.out == "GL1 range selector = RESERVED (value 1, not a valid selector)\n");
  r = decode_cli({.value = "0x100000000"});
  CHECK(r.rc == kInput);
  CHECK(r.out.empty());
  CHECK(r.err == "syncproof decode: '0x100000000' does not fit a 32-bit flag word\n");
  r = decode_cli({.value = "IDLE"});
  CHECK(r.rc == kInput);
  CHECK(r.err == "syncproof decode: 'IDLE' is not a number (expected hex 0x... or decimal)\n");
}

TEST_CASE("decode --api/--queue: what the API or queue does not accept") {
  Run r = decode_cli({.value = "0x00100000", .api = "SyncTopOfPipeX"});
  CHECK(r.rc == kInput);
  CHECK(r.out ==
        "D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH\n"
        "error: D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH is not accepted by SyncTopOfPipeX\n");
  r = decode_cli({.value = "0x40000", .api = "syncbottomofpipex", .queue = "compute"});
  CHECK(r.rc == kInput);
  CHECK(r.out ==
        "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_DATA_FLUSH\n"
        "error: D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_DATA_FLUSH is not accepted on a compute queue "
        "(SyncBottomOfPipeX accepts D3D12XBOX_SYNC_FLAG_BOP_COMPUTE_MASK there): a compute queue "
        "has no render back-ends (color/depth blocks)\n");
  CHECK(decode_cli({.value = "0x40000", .api = "SyncBottomOfPipeX", .queue = "graphics"}).rc ==
        kOk);
  r = decode_cli({.value = "0x2", .api = "SyncTopOfPipeX"});  // whole memory by default
  CHECK(r.rc == kWarnings);
  CHECK(r.out.ends_with(
      "warning: D3D12XBOX_SYNC_FLAG_ICACHE_RANGE with the whole-memory range (BaseAddress 0, "
      "SizeInBytes D3D12XBOX_FLUSH_RANGE_ALL) selects every line anyway: the range selector adds "
      "nothing\n"));
  CHECK(decode_cli({.value = "0x2", .api = "SyncTopOfPipeX", .ranged = true}).rc == kOk);
  r = decode_cli({.value = "0xE700DFFF", .api = "WaitX", .queue = "compute"});
  CHECK(r.rc == kInput);
  CHECK(r.out.find("error: D3D12XBOX_SYNC_FLAG_PFP_SYNC_ME is not accepted on a compute queue "
                   "(WaitX accepts D3D12XBOX_SYNC_FLAG_TOP_COMPUTE_MASK there)") !=
        std::string::npos);
}

TEST_CASE("decode --family dispatch and write-value") {
  Run r = decode_cli({.value = "0x8040", .family = "dispatch"});
  CHECK(r.rc == kOk);
  CHECK(r.out ==
        "D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER\n"
        "D3D12XBOX_DISPATCH_FLAG_W32\n");
  r = decode_cli({.value = "0x8040", .family = "dispatch", .queue = "graphics"});
  CHECK(r.rc == kInput);
  CHECK(r.out.find("error: D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER is only allowed on "
                   "asynchronous (compute) queues, not on a graphics queue\n") !=
        std::string::npos);
  CHECK(r.out.find("error: D3D12XBOX_DISPATCH_FLAG_W32 requires") != std::string::npos);
  CHECK(decode_cli({.value = "0x8040", .family = "dispatch", .queue = "compute", .wave32 = true})
            .rc == kOk);
  CHECK(decode_cli({.value = "1", .family = "dispatch"}).rc == kInput);
  r = decode_cli({.value = "0", .family = "write-value"});
  CHECK(r.rc == kOk);
  CHECK(r.out == "D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE\n");
  r = decode_cli({.value = "1", .family = "write-value"});
  CHECK(r.rc == kInput);
  CHECK(first_line(r.out) == "unknown bits 0x00000001");
}

TEST_CASE("decode: usage errors") {
  Run r = decode_cli({.value = "1", .family = "bogus"});
  CHECK(r.rc == kUsage);
  CHECK(r.err ==
        "syncproof decode: unknown --family 'bogus' (expected sync, dispatch or write-value)\n");
  r = decode_cli({.value = "1", .api = "SyncMiddleOfPipeX"});
  CHECK(r.rc == kUsage);
  CHECK(r.err.starts_with("syncproof decode: unknown API 'SyncMiddleOfPipeX' (expected "));
  r = decode_cli({.value = "1", .queue = "compute"});
  CHECK(r.rc == kUsage);
  CHECK(r.err == "syncproof decode: --queue needs --api for --family sync\n");
  r = decode_cli({.value = "1", .api = "SyncTopOfPipeX", .queue = "copy"});
  CHECK(r.rc == kUsage);
  CHECK(r.err == "syncproof decode: unknown queue type 'copy' (expected graphics or compute)\n");
  CHECK(decode_cli({.value = "1", .family = "dispatch", .api = "SyncTopOfPipeX"}).rc == kUsage);
  CHECK(decode_cli({.value = "0", .family = "write-value", .queue = "compute"}).rc == kUsage);
}

TEST_CASE("the CLI11 bindings route to encode/decode") {
  Run r = run_app({"encode", "GL2_INVALIDATE", "|", "GL2_WRITEBACK"});
  CHECK(r.rc == kOk);
  CHECK(first_line(r.out) == "0x0000C000");
  r = run_app({"encode", "GL1_INVALIDTE"});
  CHECK(r.rc == kInput);
  CHECK(r.err.find("did you mean D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE?") != std::string::npos);
  r = run_app({"decode", "0x100000", "--api", "SyncTopOfPipeX", "--queue", "compute"});
  CHECK(r.rc == kInput);
  CHECK(r.out ==
        "D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH\n"
        "error: D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH is not accepted by SyncTopOfPipeX\n");
  r = run_app({"decode", "0x8000", "--family", "dispatch", "--queue", "compute", "--wave32"});
  CHECK(r.rc == kOk);
  CHECK(r.out == "D3D12XBOX_DISPATCH_FLAG_W32\n");
  CHECK(run_app({"decode", "0x2", "--api", "SyncTopOfPipeX", "--ranged"}).rc == kOk);
  CHECK(run_app({"decode"}).rc == kUsage);
  CHECK(run_app({"encode"}).rc == kUsage);
}
