// The recording device against engine code as it is written for the real interfaces: every call
// below is a call an engine makes on the console (HRESULTs checked, IID_PPV_ARGS, SetName,
// GetGPUVirtualAddress, Close/Reset, both barrier APIs, DispatchMesh, WriteBufferImmediate,
// ExecuteIndirect with a command signature and a count buffer, CopyTextureRegion with copy
// locations and a box, a list executed twice, a list passed as ID3D12GraphicsCommandList6*), and
// the recording is checked command by command: what each call accesses comes from what is bound.
#include <doctest/doctest.h>

#include <syncproof/d3d12_xs.h>

#include <string>

#include "syncproof/record.h"
#include "tests/record/d3d12_util.h"

using namespace syncproof::record;
using namespace syncproof::record::testing;

namespace {

// An engine helper that takes the SDK's list type.
void cull_pass(ID3D12GraphicsCommandList6* list, ID3D12Resource* visible) {
  list->SetComputeRootUnorderedAccessView(0, visible->GetGPUVirtualAddress());
  list->Dispatch(16, 1, 1);
}

}  // namespace

TEST_CASE("engine calls on the real interfaces record what they bind") {
  Recorder rec("calls");
  ID3D12Device* device = rec.Device();

  D3D12_COMMAND_QUEUE_DESC qd = {D3D12_COMMAND_LIST_TYPE_DIRECT, 0, D3D12_COMMAND_QUEUE_FLAG_NONE,
                                 0};
  Ref<ID3D12CommandQueue> queue;
  REQUIRE(SUCCEEDED(device->CreateCommandQueue(&qd, IID_PPV_ARGS(&queue))));
  Ref<ID3D12CommandAllocator> alloc;
  REQUIRE(SUCCEEDED(
      device->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_DIRECT, IID_PPV_ARGS(&alloc))));
  Ref<ID3D12GraphicsCommandList7> list;
  REQUIRE(SUCCEEDED(device->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_DIRECT, alloc, nullptr,
                                              IID_PPV_ARGS(&list))));
  // QueryInterface to an older list interface, as engines do.
  Ref<ID3D12GraphicsCommandList> base;
  REQUIRE(SUCCEEDED(list->QueryInterface(IID_PPV_ARGS(&base))));
  CHECK(static_cast<ID3D12GraphicsCommandList*>(base) ==
        static_cast<ID3D12GraphicsCommandList*>(list.p));

  Ref<ID3D12Resource> visible =
      committed(device, buffer(0x1000), D3D12_RESOURCE_STATE_UNORDERED_ACCESS, L"visible");
  Ref<ID3D12Resource> args = committed(device, buffer(0x100), D3D12_RESOURCE_STATE_COMMON, L"args");
  Ref<ID3D12Resource> count =
      committed(device, buffer(0x100), D3D12_RESOURCE_STATE_COMMON, L"draw_count");
  Ref<ID3D12Resource> upload =
      committed(device, buffer(0x40000), D3D12_RESOURCE_STATE_COPY_SOURCE, L"staging");
  Ref<ID3D12Resource> albedo = committed(device, texture(D3D12_RESOURCE_FLAG_NONE),
                                         D3D12_RESOURCE_STATE_COPY_DEST, L"albedo");
  Ref<ID3D12Resource> target = committed(device, texture(D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET),
                                         D3D12_RESOURCE_STATE_RENDER_TARGET, L"target");
  CHECK(visible->GetGPUVirtualAddress() != 0);
  CHECK(args->GetGPUVirtualAddress() != visible->GetGPUVirtualAddress());

  D3D12_DESCRIPTOR_HEAP_DESC rtv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1,
                                         D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
  Ref<ID3D12DescriptorHeap> rtvs;
  REQUIRE(SUCCEEDED(device->CreateDescriptorHeap(&rtv_desc, IID_PPV_ARGS(&rtvs))));
  const D3D12_CPU_DESCRIPTOR_HANDLE rtv = rtvs->GetCPUDescriptorHandleForHeapStart();
  device->CreateRenderTargetView(target, nullptr, rtv);

  D3D12_INDIRECT_ARGUMENT_DESC indirect = {};
  indirect.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED;
  D3D12_COMMAND_SIGNATURE_DESC sig_desc = {sizeof(D3D12_DRAW_INDEXED_ARGUMENTS), 1, &indirect, 0};
  Ref<ID3D12CommandSignature> signature;
  REQUIRE(SUCCEEDED(device->CreateCommandSignature(&sig_desc, nullptr, IID_PPV_ARGS(&signature))));

  // The upload: a texture region with a box, then the cull pass writes the visible list, and an
  // immediate write sets the count.
  PIXBeginEvent(list.p, 0, "upload");
  D3D12_TEXTURE_COPY_LOCATION dst = {};
  dst.pResource = albedo;
  dst.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
  dst.SubresourceIndex = 0;
  D3D12_TEXTURE_COPY_LOCATION src = {};
  src.pResource = upload;
  src.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
  src.PlacedFootprint.Footprint = {DXGI_FORMAT_R8G8B8A8_UNORM, 256, 256, 1, 1024};
  const D3D12_BOX box = {0, 0, 0, 128, 128, 1};
  list->CopyTextureRegion(&dst, 0, 0, 0, &src, &box);
  PIXEndEvent(list.p);

  PIXBeginEvent(list.p, 0, "cull");
  cull_pass(list, visible);  // an ID3D12GraphicsCommandList7* passed as List6*
  PIXEndEvent(list.p);

  D3D12_RESOURCE_BARRIER uav = {};
  uav.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
  uav.UAV.pResource = visible;
  list->ResourceBarrier(1, &uav);

  PIXSetMarker(list.p, 0, "count");
  const D3D12_WRITEBUFFERIMMEDIATE_PARAMETER param = {count->GetGPUVirtualAddress(), 64};
  const D3D12_WRITEBUFFERIMMEDIATE_MODE mode = D3D12_WRITEBUFFERIMMEDIATE_MODE_MARKER_OUT;
  list->WriteBufferImmediate(1, &param, &mode);

  // The enhanced barrier: the copy's and the immediate write's results to the indirect draw.
  D3D12_GLOBAL_BARRIER global = {D3D12_BARRIER_SYNC_ALL, D3D12_BARRIER_SYNC_EXECUTE_INDIRECT,
                                 D3D12_BARRIER_ACCESS_COMMON,
                                 D3D12_BARRIER_ACCESS_INDIRECT_ARGUMENT};
  D3D12_BARRIER_GROUP group = {};
  group.Type = D3D12_BARRIER_TYPE_GLOBAL;
  group.NumBarriers = 1;
  group.pGlobalBarriers = &global;
  list->Barrier(1, &group);

  PIXBeginEvent(list.p, 0, "draw");
  D3D12_INDEX_BUFFER_VIEW ib = {visible->GetGPUVirtualAddress(), 0x1000, DXGI_FORMAT_R32_UINT};
  list->IASetIndexBuffer(&ib);
  list->OMSetRenderTargets(1, &rtv, FALSE, nullptr);
  list->ExecuteIndirect(signature, 1, args, 0, count, 0);
  list->DispatchMesh(1, 1, 1);
  PIXEndEvent(list.p);
  REQUIRE(SUCCEEDED(list->Close()));

  // Executed twice (the same frame's list submitted again), reset, re-recorded, executed again.
  ID3D12CommandList* lists[] = {list};
  queue->ExecuteCommandLists(1, lists);
  queue->ExecuteCommandLists(1, lists);
  REQUIRE(SUCCEEDED(list->Reset(alloc, nullptr)));
  PIXSetMarker(list.p, 0, "again");
  cull_pass(list, visible);
  REQUIRE(SUCCEEDED(list->Close()));
  queue->ExecuteCommandLists(1, lists);

  rec.Check(NoHazards());
  rec.Check(DeadlockFree());
  const std::string text = rec.CaseText();
  INFO(text);
  CHECK(has(text,
            "  upload: CopyTextureRegion writes albedo as copy-dst, reads staging as "
            "copy-src\n"));
  CHECK(has(text, "  cull: Dispatch reads visible as uav in cs, writes visible as uav in cs\n"));
  CHECK(has(text, "  ResourceBarrier(UAV, visible)\n"));
  CHECK(has(text, "  count: CopyBufferRegion writes draw_count as copy-dst\n"));
  CHECK(has(text, "  Barrier(GLOBAL, ALL, EXECUTE_INDIRECT, COMMON, INDIRECT_ARGUMENT)\n"));
  CHECK(has(text,
            "  draw: ExecuteIndirect draw args args, writes target as rt, reads visible as "
            "index, reads draw_count as indirect\n"));
  CHECK(has(text, "  draw.2: DrawInstanced writes target as rt\n"));
  // Each execution records the list again, with labels of its own.
  CHECK(has(text, "  upload.2: CopyTextureRegion"));
  CHECK(has(text, "  cull.2: Dispatch"));
  CHECK(has(text, "  again: Dispatch reads visible as uav in cs, writes visible as uav in cs\n"));
  CHECK(text.find("upload.3") == std::string::npos);

  const Result r = rec.Verify();
  INFO(r.report());
  CHECK_FALSE(r.has_errors);
  CHECK(r.properties.size() == 2);
  for (const PropertyResult& p : r.properties) CHECK(p.verdict != "error");
}

TEST_CASE("an explicit SetAccesses overrides what the next work command binds, once") {
  Recorder rec("bindless");
  ID3D12Device* device = rec.Device();
  D3D12_COMMAND_QUEUE_DESC qd = {D3D12_COMMAND_LIST_TYPE_COMPUTE, 0, D3D12_COMMAND_QUEUE_FLAG_NONE,
                                 0};
  Ref<ID3D12CommandQueue> queue;
  REQUIRE(SUCCEEDED(device->CreateCommandQueue(&qd, IID_PPV_ARGS(&queue))));
  Ref<ID3D12CommandAllocator> alloc;
  REQUIRE(SUCCEEDED(
      device->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_COMPUTE, IID_PPV_ARGS(&alloc))));
  Ref<ID3D12GraphicsCommandList6> list;
  REQUIRE(SUCCEEDED(device->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_COMPUTE, alloc, nullptr,
                                              IID_PPV_ARGS(&list))));
  Ref<ID3D12Resource> lights =
      committed(device, buffer(0x1000), D3D12_RESOURCE_STATE_UNORDERED_ACCESS, L"lights");
  Ref<ID3D12Resource> tiles =
      committed(device, buffer(0x1000), D3D12_RESOURCE_STATE_UNORDERED_ACCESS, L"tiles");
  list->SetComputeRootUnorderedAccessView(0, tiles->GetGPUVirtualAddress());
  // The shader reads the lights through a bindless heap the bindings do not show.
  SetAccesses(list, {Reads(lights, Kind::Srv, Stage::Cs), Writes(tiles, Kind::Uav, Stage::Cs)});
  PIXSetMarker(list.p, 0, "bin");
  list->Dispatch(8, 8, 1);
  PIXSetMarker(list.p, 0, "bound");
  list->Dispatch(8, 8, 1);  // back to what is bound
  REQUIRE(SUCCEEDED(list->Close()));
  ID3D12CommandList* lists[] = {list};
  queue->ExecuteCommandLists(1, lists);
  const std::string text = rec.CaseText();
  INFO(text);
  CHECK(has(text, "  bin: Dispatch reads lights as srv in cs, writes tiles as uav in cs\n"));
  CHECK(has(text, "  bound: Dispatch reads tiles as uav in cs, writes tiles as uav in cs\n"));
}

TEST_CASE("a method syncproof does not model is reported once, at the engine's line") {
  Recorder rec("rays");
  ID3D12Device* device = rec.Device();
  D3D12_COMMAND_QUEUE_DESC qd = {D3D12_COMMAND_LIST_TYPE_COMPUTE, 0, D3D12_COMMAND_QUEUE_FLAG_NONE,
                                 0};
  Ref<ID3D12CommandQueue> queue;
  REQUIRE(SUCCEEDED(device->CreateCommandQueue(&qd, IID_PPV_ARGS(&queue))));
  Ref<ID3D12CommandAllocator> alloc;
  REQUIRE(SUCCEEDED(
      device->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_COMPUTE, IID_PPV_ARGS(&alloc))));
  Ref<ID3D12GraphicsCommandList6> list;
  REQUIRE(SUCCEEDED(device->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_COMPUTE, alloc, nullptr,
                                              IID_PPV_ARGS(&list))));
  Ref<ID3D12Resource> out =
      committed(device, buffer(0x1000), D3D12_RESOURCE_STATE_UNORDERED_ACCESS, L"out");
  D3D12_DISPATCH_RAYS_DESC rays = {};
  const unsigned line = __LINE__ + 1;
  list->DispatchRays(&rays);
  list->DispatchRays(&rays);  // the same method again: not reported twice
  list->SetComputeRootUnorderedAccessView(0, out->GetGPUVirtualAddress());
  list->Dispatch(1, 1, 1);
  REQUIRE(SUCCEEDED(list->Close()));
  ID3D12CommandList* lists[] = {list};
  queue->ExecuteCommandLists(1, lists);
  rec.Prove(NoHazards());
  const Result r = rec.Verify();
  INFO(r.report());
  size_t reported = 0;
  for (const Diagnostic& d : r.diagnostics) {
    if (d.message.find("not modelled") == std::string::npos) continue;
    ++reported;
    CHECK(d.severity == "warning");
    CHECK(d.message ==
          "not modelled: DispatchRays at " + std::string(__FILE__) + ":" + std::to_string(line));
    CHECK(d.line == line);
  }
  CHECK(reported == 1);
}

// A compute queue's dispatch written and signalled without a flush, read on the graphics queue
// after its wait: what the wait misses depends on which flags the signal and wait carry.
void produce_consume(Recorder& rec) {
  ID3D12Device* device = rec.Device();
  D3D12_COMMAND_QUEUE_DESC gd = {D3D12_COMMAND_LIST_TYPE_DIRECT, 0, D3D12_COMMAND_QUEUE_FLAG_NONE,
                                 0};
  D3D12_COMMAND_QUEUE_DESC cd = {D3D12_COMMAND_LIST_TYPE_COMPUTE, 0, D3D12_COMMAND_QUEUE_FLAG_NONE,
                                 0};
  Ref<ID3D12CommandQueue> gfx, acs;
  REQUIRE(SUCCEEDED(device->CreateCommandQueue(&gd, IID_PPV_ARGS(&gfx))));
  REQUIRE(SUCCEEDED(device->CreateCommandQueue(&cd, IID_PPV_ARGS(&acs))));
  Ref<ID3D12CommandAllocator> ga, ca;
  REQUIRE(
      SUCCEEDED(device->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_DIRECT, IID_PPV_ARGS(&ga))));
  REQUIRE(SUCCEEDED(
      device->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_COMPUTE, IID_PPV_ARGS(&ca))));
  Ref<ID3D12GraphicsCommandList6> gl, cl;
  REQUIRE(SUCCEEDED(device->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_DIRECT, ga, nullptr,
                                              IID_PPV_ARGS(&gl))));
  REQUIRE(SUCCEEDED(device->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_COMPUTE, ca, nullptr,
                                              IID_PPV_ARGS(&cl))));
  Ref<ID3D12Fence> fence;
  REQUIRE(SUCCEEDED(device->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&fence))));
  Ref<ID3D12Resource> data =
      committed(device, buffer(0x1000), D3D12_RESOURCE_STATE_UNORDERED_ACCESS, L"data");

  PIXSetMarker(cl.p, 0, "produce");
  cl->SetComputeRootUnorderedAccessView(0, data->GetGPUVirtualAddress());
  cl->Dispatch(1, 1, 1);
  // No CS partial flush and no write-back before the signal.
  REQUIRE(SUCCEEDED(cl->Close()));
  ID3D12CommandList* c[] = {cl};
  acs->ExecuteCommandLists(1, c);
  REQUIRE(SUCCEEDED(acs->Signal2X(fence, 1)));
  REQUIRE(SUCCEEDED(gfx->WaitX(fence, 1)));
  PIXSetMarker(gl.p, 0, "consume");
  gl->SetComputeRootShaderResourceView(0, data->GetGPUVirtualAddress());
  gl->Dispatch(1, 1, 1);
  REQUIRE(SUCCEEDED(gl->Close()));
  ID3D12CommandList* g[] = {gl};
  gfx->ExecuteCommandLists(1, g);
}

TEST_CASE("a refuted recording's missing: names the engine's lines, not the case text") {
  Recorder rec("missing");
  produce_consume(rec);
  rec.Refute(Visible("produce", "consume"));
  const Result r = rec.Verify();
  INFO(rec.CaseText());
  INFO(r.report());
  CHECK(r.ok());
  REQUIRE(r.properties.size() == 1);
  const PropertyResult& p = r.properties[0];
  CHECK(p.verdict == "violated");
  CHECK_FALSE(p.missing.empty());
  for (const std::string& m : p.missing) CHECK(m.find("recording.sync") == std::string::npos);
  CHECK(p.why.find("recording.sync") == std::string::npos);
  CHECK(r.report().find("recording.sync") == std::string::npos);
  CHECK(r.report().find("test_d3d12_calls.cpp:") != std::string::npos);
  for (const TraceStep& s : p.trace)
    CHECK(s.file.find("test_d3d12_calls.cpp") != std::string::npos);
}

TEST_CASE("a violated Prove carries the verified fix, as edits at the engine's calls") {
  Recorder rec("fix");
  produce_consume(rec);
  rec.Prove(Visible("produce", "consume"));
  const Result r = rec.Verify();
  INFO(rec.CaseText());
  INFO(r.report());
  CHECK_FALSE(r.ok());
  REQUIRE(r.properties.size() == 1);
  const PropertyResult& p = r.properties[0];
  CHECK(p.verdict == "violated");
  REQUIRE_FALSE(p.fix.empty());
  CHECK(p.fix_note.empty());
  for (const FixEdit& e : p.fix) {
    CHECK(e.file.find("test_d3d12_calls.cpp") != std::string::npos);
    CHECK(e.line > 0);
    CHECK(e.text.rfind(e.file + ":" + std::to_string(e.line) + ":", 0) == 0);
    CHECK(e.text.find("recording.sync") == std::string::npos);
  }
  // `missing:` is that fix.
  REQUIRE(p.missing.size() == 1);
  CHECK(p.missing[0].find("(the fix below)") != std::string::npos);
  CHECK(p.missing[0].find("recording.sync") == std::string::npos);
  CHECK(r.report().find("    fix: ") != std::string::npos);
  // Asked not to, Verify searches no fix.
  Options o;
  o.fix = false;
  const Result plain = rec.Verify(o);
  REQUIRE(plain.properties.size() == 1);
  CHECK(plain.properties[0].fix.empty());
}

TEST_CASE(
    "placed resources share their heap's addresses, and vertex, stream-out, depth bindings are "
    "accesses") {
  Recorder rec("bindings");
  ID3D12Device* device = rec.Device();
  D3D12_COMMAND_QUEUE_DESC qd = {D3D12_COMMAND_LIST_TYPE_DIRECT, 0, D3D12_COMMAND_QUEUE_FLAG_NONE,
                                 0};
  Ref<ID3D12CommandQueue> queue;
  REQUIRE(SUCCEEDED(device->CreateCommandQueue(&qd, IID_PPV_ARGS(&queue))));
  Ref<ID3D12CommandAllocator> alloc;
  REQUIRE(SUCCEEDED(
      device->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_DIRECT, IID_PPV_ARGS(&alloc))));
  Ref<ID3D12GraphicsCommandList6> list;
  REQUIRE(SUCCEEDED(device->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_DIRECT, alloc, nullptr,
                                              IID_PPV_ARGS(&list))));
  // Two buffers placed at the same offset of one heap alias.
  D3D12_HEAP_DESC hd = {};
  hd.SizeInBytes = 0x20000;
  hd.Properties = kDefaultHeap;
  Ref<ID3D12Heap> heap;
  REQUIRE(SUCCEEDED(device->CreateHeap(&hd, IID_PPV_ARGS(&heap))));
  const D3D12_RESOURCE_DESC bd = buffer(0x10000);
  Ref<ID3D12Resource> first, second;
  REQUIRE(SUCCEEDED(device->CreatePlacedResource(heap, 0, &bd, D3D12_RESOURCE_STATE_COMMON, nullptr,
                                                 IID_PPV_ARGS(&first))));
  REQUIRE(SUCCEEDED(device->CreatePlacedResource(heap, 0, &bd, D3D12_RESOURCE_STATE_COMMON, nullptr,
                                                 IID_PPV_ARGS(&second))));
  first->SetName(L"first");
  second->SetName(L"second");
  CHECK(first->GetGPUVirtualAddress() == second->GetGPUVirtualAddress());

  Ref<ID3D12Resource> vertices =
      committed(device, buffer(0x1000), D3D12_RESOURCE_STATE_COMMON, L"vertices");
  Ref<ID3D12Resource> streamed =
      committed(device, buffer(0x2000), D3D12_RESOURCE_STATE_STREAM_OUT, L"streamed");
  D3D12_RESOURCE_DESC dd = texture(D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL);
  dd.Format = DXGI_FORMAT_D32_FLOAT;
  Ref<ID3D12Resource> depth = committed(device, dd, D3D12_RESOURCE_STATE_DEPTH_WRITE, L"depth");
  D3D12_DESCRIPTOR_HEAP_DESC dsv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 1,
                                         D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
  Ref<ID3D12DescriptorHeap> dsvs;
  REQUIRE(SUCCEEDED(device->CreateDescriptorHeap(&dsv_desc, IID_PPV_ARGS(&dsvs))));
  const D3D12_CPU_DESCRIPTOR_HANDLE dsv = dsvs->GetCPUDescriptorHandleForHeapStart();
  device->CreateDepthStencilView(depth, nullptr, dsv);

  const D3D12_VERTEX_BUFFER_VIEW vbv = {vertices->GetGPUVirtualAddress(), 0x1000, 16};
  list->IASetVertexBuffers(0, 1, &vbv);
  const D3D12_STREAM_OUTPUT_BUFFER_VIEW sov = {streamed->GetGPUVirtualAddress(), 0x1000,
                                               streamed->GetGPUVirtualAddress() + 0x1000};
  list->SOSetTargets(0, 1, &sov);
  list->OMSetRenderTargets(0, nullptr, FALSE, &dsv);
  PIXSetMarker(list.p, 0, "geometry");
  list->DrawInstanced(3, 1, 0, 0);
  REQUIRE(SUCCEEDED(list->Close()));
  ID3D12CommandList* lists[] = {list};
  queue->ExecuteCommandLists(1, lists);
  const std::string text = rec.CaseText();
  INFO(text);
  CHECK(has(text, "buffer first 0x100000000 0x10000 state COMMON\n"));
  CHECK(has(text, "buffer second 0x100000000 0x10000 state COMMON\n"));
  CHECK(has(text,
            "  geometry: DrawInstanced reads vertices as vertex, writes streamed as "
            "streamout, writes depth as depth\n"));
}
