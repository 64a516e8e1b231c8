// Every call an engine makes records where it was made: device calls syncproof does not model are
// reported at the engine's line, calls through the older list interfaces an engine holds
// (ID3D12GraphicsCommandList..List5 pointers) keep their call site like List6 ones, and so does
// the CPU's fence signal. And a PIX event cannot take a resource's name.
#include <doctest/doctest.h>

#include <syncproof/d3d12_xs.h>

#include <string>
#include <type_traits>

#include "record/recorded.h"
#include "syncproof/record.h"
#include "tests/record/d3d12_util.h"

using namespace syncproof::record;
using namespace syncproof::record::testing;

// Engine code converts newer interface pointers to older ones, as with the SDK's header.
static_assert(std::is_convertible_v<ID3D12Device5*, ID3D12Device*>);
static_assert(std::is_convertible_v<ID3D12GraphicsCommandList8*, ID3D12GraphicsCommandList*>);
static_assert(std::is_convertible_v<ID3D12GraphicsCommandList6*, ID3D12GraphicsCommandList5*>);

namespace {

std::string at(unsigned line, const std::string& what) {
  return "not modelled: " + what + " at " + std::string(__FILE__) + ":" + std::to_string(line);
}

// The "not modelled" warnings of a recording, in the order they were raised.
std::vector<Diagnostic> not_modelled(const Result& r) {
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : r.diagnostics)
    if (d.message.rfind("not modelled", 0) == 0) out.push_back(d);
  return out;
}

}  // namespace

TEST_CASE("device calls syncproof does not model are reported at the engine's line") {
  Recorder rec("device");
  ID3D12Device* device = rec.Device();
  D3D12_COMMAND_QUEUE_DESC qd = {D3D12_COMMAND_LIST_TYPE_COPY, 0, D3D12_COMMAND_QUEUE_FLAG_NONE, 0};
  Ref<ID3D12CommandQueue> copy;
  const unsigned queue_line = __LINE__ + 1;
  REQUIRE(SUCCEEDED(device->CreateCommandQueue(&qd, IID_PPV_ARGS(&copy))));
  const char blob[] = "DXBC: a root signature compiled by dxc";
  Ref<ID3D12RootSignature> root;
  const unsigned root_line = __LINE__ + 1;
  REQUIRE(SUCCEEDED(device->CreateRootSignature(0, blob, sizeof blob, IID_PPV_ARGS(&root))));
  const D3D12_RESOURCE_DESC desc = buffer(0x10000);
  Ref<ID3D12Resource> reserved;
  const unsigned reserved_start = __LINE__ + 1;
  REQUIRE(SUCCEEDED(device->CreateReservedResource(&desc, D3D12_RESOURCE_STATE_COMMON, nullptr,
                                                   IID_PPV_ARGS(&reserved))));
  // A call over two lines: GCC names the line it starts on, clang 14 the line of its closing
  // parenthesis (docs/LIBRARY.md, "Compilers").
#ifdef __clang__
  const unsigned reserved_line = reserved_start + 1;
#else
  const unsigned reserved_line = reserved_start;
#endif
  rec.Prove(DeadlockFree());
  const Result r = rec.Verify();
  INFO(r.report());
  const std::vector<Diagnostic> found = not_modelled(r);
  REQUIRE(found.size() == 3);
  CHECK(
      found[0].message ==
      at(queue_line, "CreateCommandQueue of a COPY or video queue (recorded as a compute queue)"));
  CHECK(found[1].message == at(root_line,
                               "CreateRootSignature of a blob syncproof did not serialize (shader "
                               "visibility and table sizes unknown: every stage, whole heaps)"));
  CHECK(found[2].message ==
        at(reserved_line, "CreateReservedResource (tile mappings; given its own addresses)"));
  for (const Diagnostic& d : found) {
    CHECK(d.severity == "warning");
    CHECK(d.file == __FILE__);
  }
  CHECK(found[2].line == reserved_line);
  CHECK(found[2].text().rfind(std::string(__FILE__) + ":" + std::to_string(reserved_line) + ":",
                              0) == 0);
}

TEST_CASE("calls through ID3D12GraphicsCommandList..List5 pointers keep their call site") {
  Recorder rec("older");
  ID3D12Device* device = rec.Device();
  Ref<ID3D12CommandQueue> queue;
  Ref<ID3D12CommandAllocator> alloc;
  // The engine holds the list as the oldest interface and a List4 for ray tracing.
  Ref<ID3D12GraphicsCommandList> list;
  queue_and_list(device, D3D12_COMMAND_LIST_TYPE_DIRECT, queue, alloc, list);
  Ref<ID3D12GraphicsCommandList4> list4;
  REQUIRE(SUCCEEDED(list->QueryInterface(IID_PPV_ARGS(&list4))));
  Ref<ID3D12Resource> data =
      committed(device, buffer(0x1000), D3D12_RESOURCE_STATE_UNORDERED_ACCESS, L"data");
  list->SetComputeRootUnorderedAccessView(0, data->GetGPUVirtualAddress());
  const unsigned dispatch_line = __LINE__ + 1;
  list->Dispatch(1, 1, 1);
  const unsigned predication_line = __LINE__ + 1;
  list->SetPredication(data, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
  D3D12_DISPATCH_RAYS_DESC rays = {};
  const unsigned rays_line = __LINE__ + 1;
  list4->DispatchRays(&rays);
  REQUIRE(SUCCEEDED(list->Close()));
  ID3D12CommandList* lists[] = {list};
  queue->ExecuteCommandLists(1, lists);

  const CaseText t = case_text(rec);
  bool dispatch = false;
  for (size_t i = 0; i < t.lines.size(); ++i) {
    if (t.lines[i].find("Dispatch reads data") == std::string::npos) continue;
    dispatch = true;
    CHECK(t.origins[i].file == __FILE__);
    CHECK(t.origins[i].line == dispatch_line);
  }
  CHECK(dispatch);
  rec.Prove(NoHazards());
  const Result r = rec.Verify();
  INFO(r.report());
  const std::vector<Diagnostic> found = not_modelled(r);
  REQUIRE(found.size() == 2);
  CHECK(found[0].message ==
        at(predication_line, "SetPredication (the CP reads the predicate buffer)"));
  CHECK(found[1].message == at(rays_line, "DispatchRays"));
}

TEST_CASE("the CPU's fence signal records its call site") {
  Recorder rec("cpu");
  ID3D12Device* device = rec.Device();
  Ref<ID3D12Fence> fence;
  REQUIRE(SUCCEEDED(device->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&fence))));
  REQUIRE(SUCCEEDED(fence->SetName(L"frame")));
  const unsigned line = __LINE__ + 1;
  REQUIRE(SUCCEEDED(fence->Signal(1)));
  const CaseText t = case_text(rec);
  size_t found = 0;
  for (size_t i = 0; i < t.lines.size(); ++i) {
    if (t.lines[i].find("Signal(frame, 1)") == std::string::npos) continue;
    ++found;
    CHECK(t.origins[i].file == __FILE__);
    CHECK(t.origins[i].line == line);
  }
  CHECK(found == 1);
}

// A PIX event named like a resource would be renamed `upload.2` in the case text, and
// Visible("upload", ...) would then name the resource, not the pass: an error at the command
// the event names, whichever was named first.
TEST_CASE("a PIX event with the name of a resource is an error at the command it names") {
  for (const bool event_first : {false, true}) {
    CAPTURE(event_first);
    Recorder rec("clash");
    ID3D12Device* device = rec.Device();
    Ref<ID3D12CommandQueue> queue;
    Ref<ID3D12CommandAllocator> alloc;
    Ref<ID3D12GraphicsCommandList6> list;
    queue_and_list(device, D3D12_COMMAND_LIST_TYPE_COMPUTE, queue, alloc, list);
    Ref<ID3D12Resource> data;
    const D3D12_RESOURCE_DESC desc = buffer(0x1000);
    REQUIRE(SUCCEEDED(device->CreateCommittedResource(&kDefaultHeap, D3D12_HEAP_FLAG_NONE, &desc,
                                                      D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
                                                      nullptr, IID_PPV_ARGS(&data))));
    if (!event_first) data->SetName(L"upload");
    PIXBeginEvent(list.p, 0, "upload");
    list->SetComputeRootUnorderedAccessView(0, data->GetGPUVirtualAddress());
    const unsigned line = __LINE__ + 1;
    list->Dispatch(1, 1, 1);
    PIXEndEvent(list.p);
    REQUIRE(SUCCEEDED(list->Close()));
    ID3D12CommandList* lists[] = {list};
    queue->ExecuteCommandLists(1, lists);
    if (event_first) data->SetName(L"upload");
    rec.Prove(NoHazards());
    const Result r = rec.Verify();
    INFO(r.report());
    CHECK(r.has_errors);
    std::vector<Diagnostic> errors;
    for (const Diagnostic& d : r.diagnostics)
      if (d.severity == "error") errors.push_back(d);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].message ==
          "PIX event 'upload' has the name of a resource: Visible(\"upload\", ...) and Ordered "
          "could not name its pass (the case text has one namespace); rename the event or the "
          "resource");
    CHECK(errors[0].file == __FILE__);
    CHECK(errors[0].line == line);
  }
}
