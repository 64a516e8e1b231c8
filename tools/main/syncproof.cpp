// syncproof: a formal model and property checker for GPU synchronization on Xbox Series.
#include <fmt/format.h>

#include <exception>
#include <iostream>
#include <new>
#include <system_error>

#include "syncproof/version.h"
#include "tools/commands.h"
#include "tools/exit_codes.h"
#include "tools/memory_limit.h"

int main(int argc, char** argv) {
  using namespace syncproof::cli;
  CLI::App app{"syncproof: prove or refute GPU synchronization properties (Xbox Series, RDNA2)"};
  app.set_version_flag(
      "--version", fmt::format("syncproof {} (Z3 {})", SYNCPROOF_VERSION, SYNCPROOF_Z3_VERSION));
  app.require_subcommand(1);
  int rc = static_cast<int>(Exit::Ok);
  register_encode(app, rc);
  register_decode(app, rc);
  register_lint(app, rc);
  register_check(app, rc);
  register_fuzz(app, rc);
  register_monotone(app, rc);
  register_export(app, rc);
  register_fix(app, rc);
  register_barrier(app, rc);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return static_cast<int>(Exit::Usage);
  } catch (const std::bad_alloc&) {  // outside a case (each command reports its cases' own)
    std::cerr << "syncproof: internal error: out of memory\n";
    return static_cast<int>(Exit::Internal);
  } catch (const std::system_error& e) {
    // A thread the batch or the solver's watchdog needs could not start: under a low
    // --max-memory (or ulimit -v) that is the address space running out.
    std::cerr << "syncproof: internal error: " << e.what()
              << (out_of_resources(e)
                      ? " (out of resources: the memory limit, --max-memory or ulimit -v, "
                        "may be too low)\n"
                      : "\n");
    return static_cast<int>(Exit::Internal);
  } catch (const std::exception& e) {
    std::cerr << "syncproof: internal error: " << e.what() << "\n";
    return static_cast<int>(Exit::Internal);
  }
  return rc;
}
