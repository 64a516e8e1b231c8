#pragma once
// Internal to record/: the state of a Recorder (the case text it builds, call by call, each line
// with the call that wrote it) and the text of the calls, shared by the recording classes of
// <syncproof/record.h> and the recording D3D12 objects (record/d3d12_*.cpp). Standard library
// only, so that the files that see d3d12.h's Windows definitions can include it.
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "syncproof/record.h"

namespace syncproof::record {

struct Origin {
  std::string file;
  unsigned line = 0, column = 0;
};

struct Command {
  std::string text;  // the case-language line, label included
  Origin origin;
  std::string problem;  // e.g. a label that is no identifier: an error at the call
};

class DeviceRecorder;  // record/d3d12_objects.h
struct DeviceDeleter {
  void operator()(DeviceRecorder* d) const;
};

struct Recorder::Impl {
  std::string title;
  std::vector<Command> decls, props;
  struct Queue {
    std::string name;
    std::vector<Command> cmds;
    std::set<size_t> executions;  // where each ExecuteCommandLists begins: an `on` block each
  };
  std::vector<Queue> queues;
  std::vector<std::unique_ptr<CommandQueue>> handles;
  std::map<uint64_t, std::string> labels;  // address -> label name
  std::vector<Diagnostic> problems;
  size_t invalid = 0;
  std::set<std::string> used;          // every name given to a declaration or a command label
  std::set<std::string> not_modelled;  // the methods already reported
  std::map<std::string, std::string> declared;  // resource, fence, queue names -> which
  std::map<std::string, Origin> event_names;    // PIX event names -> the first command named
  std::set<std::string> clashes;                // the event names already reported
  std::unique_ptr<DeviceRecorder, DeviceDeleter> device;

  // A name that is no identifier would change the meaning of the line: it is an error at the
  // call, and a placeholder takes its place in the text.
  std::string name(std::string n, const Where& w, std::string_view what);
  // An identifier made from a name the engine gave (SetName, a PIX event): characters the case
  // language does not take become '_', and a name already used gets ".2", ".3", ...
  std::string unique(std::string_view wanted);
  // unique() for a resource, fence or queue (`what`), replacing its name `old` if it had one, and
  // for a command label from a PIX event or marker (`at`: the command it names). A PIX event
  // with the name of a resource, fence or queue is an error at that command, whichever came
  // first: `.2` would make Visible("name", ...) name something else.
  std::string declaration(std::string_view wanted, std::string_view what,
                          const std::string& old = "");
  std::string event_label(std::string_view wanted, const Origin& at);
  // `n`, asked for as `wanted`, names a `what` (the recording classes' declarations too).
  void declare(const std::string& wanted, const std::string& n, std::string_view what);
  size_t add_queue(std::string name, QueueType type, Origin at);
  void name_clash(const std::string& name, std::string_view what, const Origin& at);
  // "not modelled: METHOD at FILE:LINE", once per method and recording.
  void unmodelled(std::string_view method, const Origin& at);
};

// The recording device's declarations (resources, fences, labels; `labels` gets the label
// names) and its references ($R<id>$, $F<id>$) resolved to names: record/d3d12_device.cpp.
std::vector<Command> device_declarations(const DeviceRecorder& d,
                                         std::map<uint64_t, std::string>& labels);
std::string device_resolve(const DeviceRecorder& d, const std::string& text);

Origin origin(const Where& w);
bool identifier(std::string_view s);
std::string_view kind_name(Kind k);
std::string accesses_text(const std::vector<Access>& as);
std::string sync_text(uint32_t flags);
std::string control_text(uint32_t control);
std::string write_flags_text(uint32_t flags);
std::string size_text(uint64_t size);
std::string comparison_text(uint32_t c);
std::string dispatch_text(uint32_t flags);
// d3d12.h's names of a value (model/d3d12.h): "RENDER_TARGET | COPY_SOURCE".
std::string resource_states_text(uint32_t states);
std::string barrier_sync_text(uint32_t sync);
std::string barrier_access_text(uint32_t access);
std::string barrier_layout_text(uint32_t layout);

}  // namespace syncproof::record
