// syncproof: a formal model and property checker for GPU synchronization on Xbox Series.
//
// The command line: `syncproof COMMAND [OPTIONS] ...`, plus `help [COMMAND|exit-codes]`,
// `version`, `-V`/`--version` and `--help`. The whole line is parsed (and every option value
// checked, tools/options.h) before the command runs; a bad command line is one line on standard
// error, "syncproof[ COMMAND]: MESSAGE", with a "did you mean" for a misspelt command or option,
// and exit 64.
#include <fmt/format.h>

#include <exception>
#include <iostream>
#include <new>
#include <string_view>
#include <system_error>

#include "syncproof/version.h"
#include "tools/commands.h"
#include "tools/exit_codes.h"
#include "tools/memory_limit.h"
#include "util/edit_distance.h"
#include "util/heap.h"

namespace {

using namespace syncproof::cli;

int usage_error(std::string_view who, std::string_view message) {
  std::cerr << who << ": " << message << "\n";
  return static_cast<int>(Exit::Usage);
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    out.push_back(sub->get_name());
  return out;
}

// "syncproof chek": the command, with the nearest one suggested.
int unknown_command(const CLI::App& app, const std::string& word) {
  const auto near = syncproof::util::closest(word, command_names(app));
  return usage_error("syncproof",
                     near ? fmt::format("unknown command '{}'; did you mean '{}'?", word, *near)
                          : fmt::format("unknown command '{}' (syncproof help lists them)", word));
}

// What was left over: an option the command does not have (the nearest one suggested), or an
// argument it takes no more of.
int extras_error(const CLI::App& app, const CLI::App* sub) {
  const std::string who = sub ? "syncproof " + sub->get_name() : "syncproof";
  const std::vector<std::string> extras = app.remaining(true);
  if (extras.empty()) return usage_error(who, "unexpected arguments");
  const std::string& first = extras.front();
  if (first.size() < 2 || first[0] != '-')
    return usage_error(who, fmt::format("unexpected argument '{}'", first));
  const std::string name = first.substr(0, first.find('='));
  std::vector<std::string> names;
  for (const CLI::Option* o : (sub ? sub : &app)->get_options()) {
    for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
    for (const std::string& n : o->get_snames()) names.push_back("-" + n);
  }
  const auto near = syncproof::util::closest(name, names);
  return usage_error(
      who, near ? fmt::format("unknown option '{}'; did you mean '{}'?", name, *near)
                : fmt::format("unknown option '{}' (syncproof help {} lists the options)", name,
                              sub ? sub->get_name() : ""));
}

const CLI::App* chosen(const CLI::App& app) {
  const auto subs = app.get_subcommands();
  return subs.empty() ? nullptr : subs.front();
}

// `text` in lines of at most 100 columns, the first after `head`, the others indented as far.
std::string wrapped(const std::string& head, std::string_view text) {
  const std::string indent(head.size(), ' ');
  std::string out = head;
  size_t col = head.size();
  bool line_start = true;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find(' ', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(at, end - at);
    if (!line_start && col + 1 + word.size() > 100) {
      out += "\n" + indent;
      col = indent.size();
      line_start = true;
    }
    if (!line_start) out += ' ', ++col;
    out += word;
    col += word.size();
    line_start = false;
    at = end + 1;
  }
  return out + "\n";
}

int print_exit_codes() {
  std::cout << "Exit codes of every syncproof command, worst first: a run that meets several "
               "outcomes\nexits with the worst.\n";
  for (const ExitDoc& d : kExitDocs)
    std::cout << wrapped(fmt::format("{:>4}  ", static_cast<int>(d.code)), d.meaning);
  return 0;
}

// `syncproof help [COMMAND|exit-codes]`.
int run_help(const CLI::App& app, const std::vector<std::string>& topic) {
  if (topic.empty()) {  // app.help() would show the help of `help`, the command chosen
    std::cout << app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal);
    return 0;
  }
  if (topic.front() == "exit-codes") return print_exit_codes();
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->get_name() == topic.front()) {
      std::cout << sub->help("syncproof");
      return 0;
    }
  const auto near = syncproof::util::closest(topic.front(), command_names(app));
  return usage_error("syncproof help",
                     fmt::format("no command '{}'{}", topic.front(),
                                 near ? fmt::format("; did you mean '{}'?", *near) : ""));
}

}  // namespace

int main(int argc, char** argv) {
  syncproof::util::use_huge_pages(argv);  // util/heap.h: may re-execute the program once
  syncproof::util::keep_large_blocks();   // each Z3 context reuses the last one's memory
  CLI::App app{"syncproof: prove or refute GPU synchronization properties (Xbox Series, RDNA2)"};
  app.name("syncproof");
  const std::string version =
      fmt::format("syncproof {} (Z3 {})", SYNCPROOF_VERSION, SYNCPROOF_Z3_VERSION);
  app.set_version_flag("-V,--version", version);
  app.require_subcommand(0, 1);
  app.footer(
      "`syncproof help COMMAND` shows a command's options; `syncproof help exit-codes` the "
      "exit codes.");
  std::vector<Command> commands = {
      register_check(app),   register_lint(app),   register_fix(app),
      register_barrier(app), register_export(app), register_monotone(app),
      register_fuzz(app),    register_encode(app), register_decode(app)};
  CLI::App* help = app.add_subcommand("help",
                                      "show the commands, a command's options, or "
                                      "`help exit-codes`");
  std::vector<std::string> topic;
  help->add_option("topic", topic, "a command, or exit-codes");
  CLI::App* version_cmd = app.add_subcommand("version", "print syncproof's version and its Z3's");

  if (argc >= 2 && argv[1][0] != '-') {
    bool known = false;
    for (const std::string& n : command_names(app)) known |= n == argv[1];
    if (!known) return unknown_command(app, argv[1]);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError&) {
    return extras_error(app, chosen(app));
  } catch (const CLI::ParseError& e) {
    const CLI::App* sub = chosen(app);
    return usage_error(sub ? "syncproof " + sub->get_name() : "syncproof", e.what());
  }
  const CLI::App* sub = chosen(app);
  if (!sub)
    return usage_error("syncproof", fmt::format("say which command: {} (syncproof help)",
                                                fmt::join(command_names(app), ", ")));
  if (sub == help) return run_help(app, topic);
  if (sub == version_cmd) {
    std::cout << version << "\n";
    return 0;
  }
  try {
    for (const Command& c : commands)
      if (c.app == sub) return c.run();
    return static_cast<int>(Exit::Internal);
  } catch (const UsageError& e) {
    return usage_error("syncproof " + sub->get_name(), e.what());
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
}
