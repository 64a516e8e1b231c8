// Bounded resources, end to end: a case over the size caps is refused with its numbers (exit 7),
// and a case that needs more memory than --max-memory stops with a message that names the case
// and its size (exit 70) instead of std::bad_alloc escaping or the kernel killing the process.
#include <doctest/doctest.h>

#include "cli_run.h"
#include "tools/generate.h"

using namespace syncproof;
using namespace syncproof::testing;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAsan = true;
#else
constexpr bool kAsan = false;
#endif
#else
constexpr bool kAsan = false;
#endif

TEST_CASE("check: a case over --max-commands or --max-events is refused with its numbers (7)") {
  ScratchDir d;
  cli::StreamShape shape;
  shape.commands = 40;
  const std::string f = d.write("stream.sync", cli::generate_stream(shape));
  CliRun r = run_cli({"check", "--max-commands", "39", f});
  CHECK(r.exit_code == 7);
  CHECK(r.out.find(f + ": error: the case has 40 commands, over the cap of 39 per case "
                       "(--max-commands): not checked\n") != std::string::npos);
  r = run_cli({"check", "--max-events", "100", f});
  CHECK(r.exit_code == 7);
  CHECK(r.out.find(f + ": error: the case lowers to ") != std::string::npos);
  CHECK(r.out.find(" hardware events (40 commands), over the cap of 100 per case (--max-events): "
                   "not checked\n") != std::string::npos);
  CHECK(run_cli({"check", f}).exit_code == 0);  // the defaults take it
}

// Not under AddressSanitizer: its operator new reports out of memory and aborts instead of
// throwing std::bad_alloc (and --max-memory is not enforced there). scripts/test.sh runs this
// test in the release build.
TEST_CASE("check: out of memory on a case is reported with the case and its size (70)" *
          doctest::skip(kAsan)) {
  ScratchDir d;
  cli::StreamShape shape;
  shape.commands = 5000;  // the engines need about 1.5 GB for it
  const std::string f = d.write("big.sync", cli::generate_stream(shape));
  CliRun r = run_cli({"check", "--max-memory", "300M", f}, within(std::chrono::seconds(300)));
  CAPTURE(r.out);
  CAPTURE(r.err);
  CHECK(r.exit_code == 70);
  CHECK(r.out.find(f + ": internal error: out of memory while checking the case (5001 commands on "
                       "3 queues, 34331 events; memory limit 300 MiB, --max-memory)") !=
        std::string::npos);
  CHECK(r.out.find("1 internal errors") != std::string::npos);
}
