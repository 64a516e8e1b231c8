// The recording command list and queue. A list records case-language commands with the call
// site each came from; ExecuteCommandLists appends them to its queue (each execution again, with
// fresh labels). Accesses come from what is bound when a draw, dispatch or ExecuteIndirect is
// recorded: root CBV/SRV/UAV views, descriptor tables of views made on the recording device
// (their ranges from the root signature), render and depth targets, index and vertex buffers,
// stream-out targets; stages from the root signature's shader visibility. Copies, clears,
// resolves and discards access their arguments. Methods that touch memory in ways the case
// language cannot state are reported once per recording as "not modelled".
#include <fmt/format.h>

#include "record/d3d12_objects.h"

namespace syncproof::record {

namespace {

std::optional<size_t> id_of(ID3D12Resource* r) {
  if (!r) return std::nullopt;
  return static_cast<DxResource*>(r)->id;
}

// The PIX event and marker text (PIX_EVENT_UNICODE_VERSION 0: wchar_t; ANSI 1: char).
std::string event_text(UINT metadata, const void* data, UINT size) {
  if (!data || !size) return "event";
  std::string out;
  if (metadata == 0) {
    const auto* w = static_cast<const wchar_t*>(data);
    for (size_t i = 0; i < size / sizeof(wchar_t) && w[i]; ++i)
      out += w[i] > 0 && w[i] < 0x80 ? static_cast<char>(w[i]) : '_';
  } else if (metadata == 1) {
    const auto* c = static_cast<const char*>(data);
    for (size_t i = 0; i < size && c[i]; ++i) out += c[i];
  }
  return out.empty() ? "event" : out;
}

void add_unique(std::vector<Access>& out, Access a) {
  for (const Access& b : out)
    if (b.write == a.write && b.resource == a.resource && b.kind == a.kind && b.stage == a.stage)
      return;
  out.push_back(std::move(a));
}

std::vector<Stage> stages(bool compute, D3D12_SHADER_VISIBILITY v) {
  if (compute) return {Stage::Cs};
  switch (v) {
    case D3D12_SHADER_VISIBILITY_PIXEL:
      return {Stage::Ps};
    case D3D12_SHADER_VISIBILITY_ALL:
      return {Stage::Vs, Stage::Ps};
    default:  // vertex, hull, domain, geometry, amplification, mesh: the geometry stage
      return {Stage::Vs};
  }
}

}  // namespace

// ---- the list's state ----

void List::add(std::string text, Origin at, bool work) {
  std::string label;
  if (!marker_.empty())
    label = std::exchange(marker_, "");
  else if (work && !events_.empty())
    label = events_.back();
  cmds.push_back({std::move(label), std::move(text), std::move(at)});
}

void List::work(std::string api, std::vector<Access> accesses, Origin at) {
  if (override_accesses) accesses = *std::exchange(override_accesses, std::nullopt);
  if (accesses.empty()) return;  // touches no memory the recording knows
  add(api + " " + accesses_text(accesses), std::move(at), true);
}

void List::view_access(const View& v, Stage stage, std::vector<Access>& out) {
  if (!v.resource) return;
  const std::string r = dev_->resource_ref(*v.resource);
  switch (v.type) {
    case View::Srv:
      add_unique(out, {false, r, Kind::Srv, stage});
      break;
    case View::Cbv:
      add_unique(out, {false, r, Kind::Cbv, stage});
      break;
    case View::Uav:  // a UAV binding is read and written
      add_unique(out, {false, r, Kind::Uav, stage});
      add_unique(out, {true, r, Kind::Uav, stage});
      break;
    default:
      break;
  }
}

void List::root_accesses(bool compute, std::vector<Access>& out) {
  const RootSignature* rs = compute ? compute_root_ : graphics_root_;
  const auto& args = compute ? compute_args_ : graphics_args_;
  for (size_t i = 0; i < args.size(); ++i) {
    const Binding& b = args[i];
    if (b.type == Binding::None) continue;
    const RootParam* p = rs && rs->known && i < rs->params.size() ? &rs->params[i] : nullptr;
    for (Stage st : stages(compute, p ? p->visibility : D3D12_SHADER_VISIBILITY_ALL)) {
      if (b.type != Binding::Table) {
        View v{b.type == Binding::Cbv   ? View::Cbv
               : b.type == Binding::Srv ? View::Srv
                                        : View::Uav,
               dev_->resource_at(b.value)};
        view_access(v, st, out);
        continue;
      }
      const DescriptorHeap* h = dev_->heap_of(b.value);
      const uint64_t heap_end =
          h ? h->base + uint64_t{h->desc.NumDescriptors} * DeviceRecorder::kDescriptorSize
            : b.value + DeviceRecorder::kDescriptorSize;
      auto take = [&](uint64_t first, uint64_t count) {
        for (uint64_t k = 0; k < count; ++k) {
          const uint64_t handle = b.value + (first + k) * DeviceRecorder::kDescriptorSize;
          if (handle >= heap_end) break;
          auto it = dev_->views.find(static_cast<SIZE_T>(handle));
          if (it != dev_->views.end()) view_access(it->second, st, out);
        }
      };
      if (!p) {
        take(0, (heap_end - b.value) / DeviceRecorder::kDescriptorSize);
        continue;
      }
      for (const RootParam::Range& r : p->ranges)
        if (r.type != D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER)
          take(r.offset, r.count == UINT_MAX ? UINT64_MAX / 2 : r.count);
    }
  }
}

void List::draw(std::string api, bool indexed, Origin at) {
  if (type == D3D12_COMMAND_LIST_TYPE_COMPUTE) {
    dev_->rec->unmodelled(api + " on a compute list", at);
    return;
  }
  std::vector<Access> as;
  root_accesses(false, as);
  if (indexed && index_buffer_)
    add_unique(as, {false, dev_->resource_ref(*index_buffer_), Kind::Index, Stage::Default});
  if (api != "DispatchMesh")
    for (size_t vb : vertex_buffers_)
      add_unique(as, {false, dev_->resource_ref(vb), Kind::Vertex, Stage::Default});
  for (size_t so : so_targets_)
    add_unique(as, {true, dev_->resource_ref(so), Kind::Streamout, Stage::Default});
  for (size_t rt : rts_) add_unique(as, {true, dev_->resource_ref(rt), Kind::Rt, Stage::Default});
  if (depth_ && depth_->resource)
    add_unique(as, {!depth_->read_only_depth, dev_->resource_ref(*depth_->resource), Kind::Depth,
                    Stage::Default});
  work(api == "DispatchMesh" ? "DrawInstanced" : api, std::move(as), std::move(at));
}

void List::reset_bindings() {
  graphics_root_ = compute_root_ = nullptr;
  graphics_args_.clear();
  compute_args_.clear();
  rts_.clear();
  depth_.reset();
  index_buffer_.reset();
  vertex_buffers_.clear();
  so_targets_.clear();
}

// ---- ID3D12GraphicsCommandList ----

HRESULT List::Close() {
  skip();
  open = false;
  return S_OK;
}

HRESULT List::Reset(ID3D12CommandAllocator*, ID3D12PipelineState*) {
  skip();
  cmds.clear();
  events_.clear();
  marker_.clear();
  reset_bindings();
  open = true;
  return S_OK;
}

void List::ClearState(ID3D12PipelineState*) {
  skip();
  reset_bindings();
}

void List::DrawInstanced(UINT, UINT, UINT, UINT) {
  draw("DrawInstanced", false, take());
}
void List::DrawIndexedInstanced(UINT, UINT, UINT, INT, UINT) {
  draw("DrawIndexedInstanced", true, take());
}
void List::DispatchMesh(UINT, UINT, UINT) {
  // Mesh and amplification shaders run in the geometry stage (NGG) and write through the
  // render back-ends: recorded as a draw without vertex fetch.
  draw("DispatchMesh", false, take());
}

void List::Dispatch(UINT, UINT, UINT) {
  std::vector<Access> as;
  root_accesses(true, as);
  work("Dispatch", std::move(as), take());
}

void List::DispatchX(UINT, UINT, UINT, D3D12XBOX_DISPATCH_FLAGS flags) {
  std::vector<Access> as;
  root_accesses(true, as);
  const bool w32 = flags & D3D12XBOX_DISPATCH_FLAG_W32;
  work(fmt::format("DispatchX({}){}", dispatch_text(flags), w32 ? " [wave32]" : ""), std::move(as),
       take());
}

void List::CopyBufferRegion(ID3D12Resource* dst, UINT64, ID3D12Resource* src, UINT64, UINT64) {
  std::vector<Access> as;
  if (auto d = id_of(dst))
    as.push_back({true, dev_->resource_ref(*d), Kind::CopyDst, Stage::Default});
  if (auto s = id_of(src))
    as.push_back({false, dev_->resource_ref(*s), Kind::CopySrc, Stage::Default});
  work("CopyBufferRegion", std::move(as), take());
}

void List::CopyTextureRegion(const D3D12_TEXTURE_COPY_LOCATION* dst, UINT, UINT, UINT,
                             const D3D12_TEXTURE_COPY_LOCATION* src, const D3D12_BOX*) {
  std::vector<Access> as;
  if (auto d = id_of(dst ? dst->pResource : nullptr))
    as.push_back({true, dev_->resource_ref(*d), Kind::CopyDst, Stage::Default});
  if (auto s = id_of(src ? src->pResource : nullptr))
    as.push_back({false, dev_->resource_ref(*s), Kind::CopySrc, Stage::Default});
  work("CopyTextureRegion", std::move(as), take());
}

void List::CopyResource(ID3D12Resource* dst, ID3D12Resource* src) {
  std::vector<Access> as;
  if (auto d = id_of(dst))
    as.push_back({true, dev_->resource_ref(*d), Kind::CopyDst, Stage::Default});
  if (auto s = id_of(src))
    as.push_back({false, dev_->resource_ref(*s), Kind::CopySrc, Stage::Default});
  work("CopyResource", std::move(as), take());
}

void List::CopyTiles(ID3D12Resource* tiled, const D3D12_TILED_RESOURCE_COORDINATE*,
                     const D3D12_TILE_REGION_SIZE*, ID3D12Resource* buffer, UINT64,
                     D3D12_TILE_COPY_FLAGS flags) {
  const bool to_buffer = flags & D3D12_TILE_COPY_FLAG_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER;
  ID3D12Resource* dst = to_buffer ? buffer : tiled;
  ID3D12Resource* src = to_buffer ? tiled : buffer;
  std::vector<Access> as;
  if (auto d = id_of(dst))
    as.push_back({true, dev_->resource_ref(*d), Kind::CopyDst, Stage::Default});
  if (auto s = id_of(src))
    as.push_back({false, dev_->resource_ref(*s), Kind::CopySrc, Stage::Default});
  work("CopyResource", std::move(as), take());
}

// Resolves: PAL resolves with a compute shader (RsrcProcMgr), recorded as a dispatch that reads
// the source and writes the destination.
void List::ResolveSubresource(ID3D12Resource* dst, UINT, ID3D12Resource* src, UINT, DXGI_FORMAT) {
  std::vector<Access> as;
  if (auto s = id_of(src)) as.push_back({false, dev_->resource_ref(*s), Kind::Srv, Stage::Default});
  if (auto d = id_of(dst)) as.push_back({true, dev_->resource_ref(*d), Kind::Uav, Stage::Default});
  work("Dispatch", std::move(as), take());
}
void List::ResolveSubresourceRegion(ID3D12Resource* dst, UINT ds, UINT, UINT, ID3D12Resource* src,
                                    UINT ss, D3D12_RECT*, DXGI_FORMAT f, D3D12_RESOLVE_MODE) {
  ResolveSubresource(dst, ds, src, ss, f);
}

void List::ResourceBarrier(UINT n, const D3D12_RESOURCE_BARRIER* bs) {
  const Origin at = take();
  for (UINT i = 0; i < n; ++i) {
    const D3D12_RESOURCE_BARRIER& b = bs[i];
    auto ref = [&](ID3D12Resource* r) {
      auto id = id_of(r);
      return id ? dev_->resource_ref(*id) : std::string("NULL");
    };
    std::string flag = b.Flags & D3D12_RESOURCE_BARRIER_FLAG_BEGIN_ONLY ? ", BEGIN_ONLY"
                       : b.Flags & D3D12_RESOURCE_BARRIER_FLAG_END_ONLY ? ", END_ONLY"
                                                                        : "";
    if (b.Type == D3D12_RESOURCE_BARRIER_TYPE_TRANSITION)
      add(fmt::format("ResourceBarrier(TRANSITION, {}, {}, {}{})", ref(b.Transition.pResource),
                      resource_states_text(b.Transition.StateBefore),
                      resource_states_text(b.Transition.StateAfter), flag),
          at, false);
    else if (b.Type == D3D12_RESOURCE_BARRIER_TYPE_UAV)
      add(fmt::format("ResourceBarrier(UAV, {})", ref(b.UAV.pResource)), at, false);
    else
      add(fmt::format("ResourceBarrier(ALIASING, {}, {})", ref(b.Aliasing.pResourceBefore),
                      ref(b.Aliasing.pResourceAfter)),
          at, false);
  }
}

void List::Barrier(UINT32 n, const D3D12_BARRIER_GROUP* groups) {
  const Origin at = take();
  for (UINT32 g = 0; g < n; ++g) {
    const D3D12_BARRIER_GROUP& grp = groups[g];
    for (UINT32 i = 0; i < grp.NumBarriers; ++i) {
      if (grp.Type == D3D12_BARRIER_TYPE_GLOBAL) {
        const auto& b = grp.pGlobalBarriers[i];
        add(fmt::format("Barrier(GLOBAL, {}, {}, {}, {})", barrier_sync_text(b.SyncBefore),
                        barrier_sync_text(b.SyncAfter), barrier_access_text(b.AccessBefore),
                        barrier_access_text(b.AccessAfter)),
            at, false);
      } else if (grp.Type == D3D12_BARRIER_TYPE_BUFFER) {
        const auto& b = grp.pBufferBarriers[i];
        auto id = id_of(b.pResource);
        add(fmt::format("Barrier(BUFFER, {}, {}, {}, {}, {})",
                        id ? dev_->resource_ref(*id) : "NULL", barrier_sync_text(b.SyncBefore),
                        barrier_sync_text(b.SyncAfter), barrier_access_text(b.AccessBefore),
                        barrier_access_text(b.AccessAfter)),
            at, false);
      } else {
        const auto& b = grp.pTextureBarriers[i];
        auto id = id_of(b.pResource);
        add(fmt::format("Barrier(TEXTURE, {}, {}, {}, {}, {}, {}, {}{})",
                        id ? dev_->resource_ref(*id) : "NULL", barrier_sync_text(b.SyncBefore),
                        barrier_sync_text(b.SyncAfter), barrier_access_text(b.AccessBefore),
                        barrier_access_text(b.AccessAfter), barrier_layout_text(b.LayoutBefore),
                        barrier_layout_text(b.LayoutAfter),
                        b.Flags & D3D12_TEXTURE_BARRIER_FLAG_DISCARD ? ", DISCARD" : ""),
            at, false);
      }
    }
  }
}

void List::ExecuteBundle(ID3D12GraphicsCommandList* bundle) {
  const Origin at = take();
  auto* b = dynamic_cast<List*>(bundle);
  if (!b) return;
  for (const ListCommand& c : b->cmds) cmds.push_back({c.label, c.text, at});
}

void List::SetDescriptorHeaps(UINT, ID3D12DescriptorHeap* const*) {
  skip();  // handles carry their heap
}
void List::SetComputeRootSignature(ID3D12RootSignature* rs) {
  skip();
  compute_root_ = static_cast<RootSignature*>(rs);
  compute_args_.clear();
}
void List::SetGraphicsRootSignature(ID3D12RootSignature* rs) {
  skip();
  graphics_root_ = static_cast<RootSignature*>(rs);
  graphics_args_.clear();
}
void List::SetComputeRootDescriptorTable(UINT i, D3D12_GPU_DESCRIPTOR_HANDLE h) {
  skip();
  bind_root(true, i, {Binding::Table, h.ptr});
}
void List::SetGraphicsRootDescriptorTable(UINT i, D3D12_GPU_DESCRIPTOR_HANDLE h) {
  skip();
  bind_root(false, i, {Binding::Table, h.ptr});
}
void List::SetComputeRootConstantBufferView(UINT i, D3D12_GPU_VIRTUAL_ADDRESS va) {
  skip();
  bind_root(true, i, {Binding::Cbv, va});
}
void List::SetGraphicsRootConstantBufferView(UINT i, D3D12_GPU_VIRTUAL_ADDRESS va) {
  skip();
  bind_root(false, i, {Binding::Cbv, va});
}
void List::SetComputeRootShaderResourceView(UINT i, D3D12_GPU_VIRTUAL_ADDRESS va) {
  skip();
  bind_root(true, i, {Binding::Srv, va});
}
void List::SetGraphicsRootShaderResourceView(UINT i, D3D12_GPU_VIRTUAL_ADDRESS va) {
  skip();
  bind_root(false, i, {Binding::Srv, va});
}
void List::SetComputeRootUnorderedAccessView(UINT i, D3D12_GPU_VIRTUAL_ADDRESS va) {
  skip();
  bind_root(true, i, {Binding::Uav, va});
}
void List::SetGraphicsRootUnorderedAccessView(UINT i, D3D12_GPU_VIRTUAL_ADDRESS va) {
  skip();
  bind_root(false, i, {Binding::Uav, va});
}

void List::IASetIndexBuffer(const D3D12_INDEX_BUFFER_VIEW* v) {
  skip();
  index_buffer_ = v ? dev_->resource_at(v->BufferLocation) : std::nullopt;
}
void List::IASetVertexBuffers(UINT start, UINT n, const D3D12_VERTEX_BUFFER_VIEW* views) {
  skip();
  (void)start;
  vertex_buffers_.clear();
  for (UINT i = 0; views && i < n; ++i)
    if (auto r = dev_->resource_at(views[i].BufferLocation)) vertex_buffers_.push_back(*r);
}
void List::SOSetTargets(UINT, UINT n, const D3D12_STREAM_OUTPUT_BUFFER_VIEW* views) {
  skip();
  so_targets_.clear();
  for (UINT i = 0; views && i < n; ++i) {
    if (auto r = dev_->resource_at(views[i].BufferLocation)) so_targets_.push_back(*r);
    if (auto r = dev_->resource_at(views[i].BufferFilledSizeLocation)) so_targets_.push_back(*r);
  }
}
void List::OMSetRenderTargets(UINT n, const D3D12_CPU_DESCRIPTOR_HANDLE* rts, BOOL single,
                              const D3D12_CPU_DESCRIPTOR_HANDLE* depth) {
  skip();
  rts_.clear();
  for (UINT i = 0; rts && i < n; ++i) {
    const SIZE_T h = single ? rts[0].ptr + SIZE_T{i} * DeviceRecorder::kDescriptorSize : rts[i].ptr;
    auto it = dev_->views.find(h);
    if (it != dev_->views.end() && it->second.resource) rts_.push_back(*it->second.resource);
  }
  depth_.reset();
  if (depth) {
    auto it = dev_->views.find(depth->ptr);
    if (it != dev_->views.end()) depth_ = it->second;
  }
}

// Clears: a render target or depth clear as a draw writing it (a fast clear writes its metadata
// through the same path); a UAV clear as a dispatch writing it (PAL clears with compute).
void List::ClearDepthStencilView(D3D12_CPU_DESCRIPTOR_HANDLE h, D3D12_CLEAR_FLAGS, FLOAT, UINT8,
                                 UINT, const D3D12_RECT*) {
  const Origin at = take();
  auto it = dev_->views.find(h.ptr);
  if (it == dev_->views.end() || !it->second.resource) return;
  work("DrawInstanced",
       {{true, dev_->resource_ref(*it->second.resource), Kind::Depth, Stage::Default}}, at);
}
void List::ClearRenderTargetView(D3D12_CPU_DESCRIPTOR_HANDLE h, const FLOAT*, UINT,
                                 const D3D12_RECT*) {
  const Origin at = take();
  auto it = dev_->views.find(h.ptr);
  if (it == dev_->views.end() || !it->second.resource) return;
  work("DrawInstanced",
       {{true, dev_->resource_ref(*it->second.resource), Kind::Rt, Stage::Default}}, at);
}
void List::ClearUnorderedAccessViewUint(D3D12_GPU_DESCRIPTOR_HANDLE, D3D12_CPU_DESCRIPTOR_HANDLE,
                                        ID3D12Resource* r, const UINT*, UINT, const D3D12_RECT*) {
  const Origin at = take();
  if (auto id = id_of(r))
    work("Dispatch", {{true, dev_->resource_ref(*id), Kind::Uav, Stage::Default}}, at);
}
void List::ClearUnorderedAccessViewFloat(D3D12_GPU_DESCRIPTOR_HANDLE, D3D12_CPU_DESCRIPTOR_HANDLE,
                                         ID3D12Resource* r, const FLOAT*, UINT, const D3D12_RECT*) {
  const Origin at = take();
  if (auto id = id_of(r))
    work("Dispatch", {{true, dev_->resource_ref(*id), Kind::Uav, Stage::Default}}, at);
}
void List::DiscardResource(ID3D12Resource* r, const D3D12_DISCARD_REGION*) {
  const Origin at = take();
  auto id = id_of(r);
  if (!id || type == D3D12_COMMAND_LIST_TYPE_COMPUTE) return;
  const ResourceInfo& info = dev_->infos[*id];
  // A discard of a render or depth target may write its metadata (DCC/HTILE): a write by the
  // render back-ends. Other resources have nothing to discard.
  if (info.rt || info.ds)
    work("DrawInstanced",
         {{true, dev_->resource_ref(*id), info.ds ? Kind::Depth : Kind::Rt, Stage::Default}}, at);
}

// Query results and immediate writes are written by the command processor: recorded as CP DMA
// writes, which the model orders no earlier than the ME's own writes.
void List::ResolveQueryData(ID3D12QueryHeap*, D3D12_QUERY_TYPE, UINT, UINT, ID3D12Resource* dst,
                            UINT64) {
  const Origin at = take();
  if (auto id = id_of(dst))
    work("CopyBufferRegion", {{true, dev_->resource_ref(*id), Kind::CopyDst, Stage::Default}}, at);
}
void List::WriteBufferImmediate(UINT n, const D3D12_WRITEBUFFERIMMEDIATE_PARAMETER* ps,
                                const D3D12_WRITEBUFFERIMMEDIATE_MODE*) {
  const Origin at = take();
  std::vector<Access> as;
  for (UINT i = 0; ps && i < n; ++i)
    if (auto id = dev_->resource_at(ps[i].Dest))
      add_unique(as, {true, dev_->resource_ref(*id), Kind::CopyDst, Stage::Default});
  work("CopyBufferRegion", std::move(as), at);
}
void List::AtomicCopyBufferUINT(ID3D12Resource* dst, UINT64 dof, ID3D12Resource* src, UINT64 sof,
                                UINT, ID3D12Resource* const*,
                                const D3D12_SUBRESOURCE_RANGE_UINT64*) {
  CopyBufferRegion(dst, dof, src, sof, 4);
}
void List::AtomicCopyBufferUINT64(ID3D12Resource* dst, UINT64 dof, ID3D12Resource* src, UINT64 sof,
                                  UINT, ID3D12Resource* const*,
                                  const D3D12_SUBRESOURCE_RANGE_UINT64*) {
  CopyBufferRegion(dst, dof, src, sof, 8);
}

void List::ExecuteIndirect(ID3D12CommandSignature* sig, UINT, ID3D12Resource* args, UINT64,
                           ID3D12Resource* count, UINT64) {
  const Origin at = take();
  const auto* cs = static_cast<CommandSignature*>(sig);
  const bool dispatch = cs && cs->kind == CommandSignature::Dispatch;
  std::vector<Access> as;
  if (dispatch) {
    root_accesses(true, as);
  } else {
    root_accesses(false, as);
    for (size_t rt : rts_) add_unique(as, {true, dev_->resource_ref(rt), Kind::Rt, Stage::Default});
    if (depth_ && depth_->resource)
      add_unique(as, {!depth_->read_only_depth, dev_->resource_ref(*depth_->resource), Kind::Depth,
                      Stage::Default});
    if (cs && cs->kind == CommandSignature::Draw) {
      if (index_buffer_)
        add_unique(as, {false, dev_->resource_ref(*index_buffer_), Kind::Index, Stage::Default});
      for (size_t vb : vertex_buffers_)
        add_unique(as, {false, dev_->resource_ref(vb), Kind::Vertex, Stage::Default});
    }
  }
  if (auto c = id_of(count))
    add_unique(as, {false, dev_->resource_ref(*c), Kind::Indirect, Stage::Default});
  if (override_accesses) as = *std::exchange(override_accesses, std::nullopt);
  auto a = id_of(args);
  if (!a) return;
  std::string text = fmt::format("ExecuteIndirect {} args {}", dispatch ? "dispatch" : "draw",
                                 dev_->resource_ref(*a));
  if (!as.empty()) text += ", " + accesses_text(as);
  add(std::move(text), at, true);
}

void List::SetPredication(ID3D12Resource* buffer, UINT64, D3D12_PREDICATION_OP) {
  const Origin at = take();
  if (buffer) dev_->rec->unmodelled("SetPredication (the CP reads the predicate buffer)", at);
}

void List::SetMarker(UINT metadata, const void* data, UINT size) {
  skip();
  marker_ = event_text(metadata, data, size);
}
void List::BeginEvent(UINT metadata, const void* data, UINT size) {
  skip();
  events_.push_back(event_text(metadata, data, size));
}
void List::EndEvent() {
  skip();
  if (!events_.empty()) events_.pop_back();
}

void List::BeginRenderPass(UINT n, const D3D12_RENDER_PASS_RENDER_TARGET_DESC* rts,
                           const D3D12_RENDER_PASS_DEPTH_STENCIL_DESC* ds,
                           D3D12_RENDER_PASS_FLAGS) {
  const Origin at = take();
  std::vector<D3D12_CPU_DESCRIPTOR_HANDLE> handles;
  std::vector<Access> clears;
  for (UINT i = 0; rts && i < n; ++i) {
    handles.push_back(rts[i].cpuDescriptor);
    auto it = dev_->views.find(rts[i].cpuDescriptor.ptr);
    if (rts[i].BeginningAccess.Type == D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_CLEAR &&
        it != dev_->views.end() && it->second.resource)
      clears.push_back({true, dev_->resource_ref(*it->second.resource), Kind::Rt, Stage::Default});
  }
  OMSetRenderTargets(n, handles.data(), FALSE, ds ? &ds->cpuDescriptor : nullptr);
  if (ds && ds->DepthBeginningAccess.Type == D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_CLEAR &&
      depth_ && depth_->resource)
    clears.push_back({true, dev_->resource_ref(*depth_->resource), Kind::Depth, Stage::Default});
  work("DrawInstanced", std::move(clears), at);
}
void List::EndRenderPass() {
  skip();
}

#define SYNCPROOF_NOT_MODELLED(method) dev_->rec->unmodelled(method, take())
void List::InitializeMetaCommand(ID3D12MetaCommand*, const void*, SIZE_T) {
  SYNCPROOF_NOT_MODELLED("InitializeMetaCommand");
}
void List::ExecuteMetaCommand(ID3D12MetaCommand*, const void*, SIZE_T) {
  SYNCPROOF_NOT_MODELLED("ExecuteMetaCommand");
}
void List::BuildRaytracingAccelerationStructure(
    const D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_DESC*, UINT,
    const D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC*) {
  SYNCPROOF_NOT_MODELLED("BuildRaytracingAccelerationStructure");
}
void List::EmitRaytracingAccelerationStructurePostbuildInfo(
    const D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC*, UINT,
    const D3D12_GPU_VIRTUAL_ADDRESS*) {
  SYNCPROOF_NOT_MODELLED("EmitRaytracingAccelerationStructurePostbuildInfo");
}
void List::CopyRaytracingAccelerationStructure(D3D12_GPU_VIRTUAL_ADDRESS, D3D12_GPU_VIRTUAL_ADDRESS,
                                               D3D12_RAYTRACING_ACCELERATION_STRUCTURE_COPY_MODE) {
  SYNCPROOF_NOT_MODELLED("CopyRaytracingAccelerationStructure");
}
void List::DispatchRays(const D3D12_DISPATCH_RAYS_DESC*) {
  SYNCPROOF_NOT_MODELLED("DispatchRays");
}
void List::RSSetShadingRateImage(ID3D12Resource* r) {
  if (r)
    SYNCPROOF_NOT_MODELLED("RSSetShadingRateImage (the rasterizer reads the image)");
  else
    skip();
}
void List::SetProtectedResourceSession(ID3D12ProtectedResourceSession*) {
  skip();
}
#undef SYNCPROOF_NOT_MODELLED

// ---- the Xbox methods ----

namespace {
std::string destination(DeviceRecorder* dev, uint64_t d) {
  dev->label_addresses.insert(d);
  return fmt::format("@{:X}", d);
}
}  // namespace

void List::SyncTopOfPipeX(D3D12XBOX_SYNC_FLAGS s, D3D12XBOX_SYNC_CONTROL_FLAGS c,
                          D3D12_GPU_VIRTUAL_ADDRESS base, SIZE_T size) {
  add(fmt::format("SyncTopOfPipeX({}, {}, 0x{:X}, {})", sync_text(s), control_text(c), base,
                  size_text(size)),
      take(), false);
}
void List::SyncBottomOfPipeX(D3D12XBOX_SYNC_FLAGS s, D3D12XBOX_SYNC_CONTROL_FLAGS c,
                             D3D12_GPU_VIRTUAL_ADDRESS base, SIZE_T size) {
  add(fmt::format("SyncBottomOfPipeX({}, {}, 0x{:X}, {})", sync_text(s), control_text(c), base,
                  size_text(size)),
      take(), false);
}
void List::Write32BitValueBottomOfPipe2X(D3D12_GPU_VIRTUAL_ADDRESS d, UINT32 v,
                                         D3D12XBOX_SYNC_FLAGS s, D3D12XBOX_SYNC_CONTROL_FLAGS c,
                                         D3D12XBOX_WRITE_VALUE_BOP_FLAGS w) {
  add(fmt::format("Write32BitValueBottomOfPipe2X({}, {}, {}, {}, {})", destination(dev_, d), v,
                  sync_text(s), control_text(c), write_flags_text(w)),
      take(), false);
}
void List::Write64BitValueBottomOfPipe2X(D3D12_GPU_VIRTUAL_ADDRESS d, UINT64 v,
                                         D3D12XBOX_SYNC_FLAGS s, D3D12XBOX_SYNC_CONTROL_FLAGS c,
                                         D3D12XBOX_WRITE_VALUE_BOP_FLAGS w) {
  add(fmt::format("Write64BitValueBottomOfPipe2X({}, {}, {}, {}, {})", destination(dev_, d), v,
                  sync_text(s), control_text(c), write_flags_text(w)),
      take(), false);
}
void List::Wait32BitValueX(D3D12_GPU_VIRTUAL_ADDRESS d, D3D12_COMPARISON_FUNC cmp, UINT32 v) {
  add(fmt::format("Wait32BitValueX({}, {}, {})", destination(dev_, d), comparison_text(cmp), v),
      take(), false);
}
void List::Wait64BitValueX(D3D12_GPU_VIRTUAL_ADDRESS d, D3D12_COMPARISON_FUNC cmp, UINT64 v) {
  add(fmt::format("Wait64BitValueX({}, {}, {})", destination(dev_, d), comparison_text(cmp), v),
      take(), false);
}

// ---- the queue ----

void Queue::add(std::string text, Origin at) {
  if (!marker.empty()) text = dev_->rec->event_label(std::exchange(marker, ""), at) + ": " + text;
  dev_->rec->queues[index].cmds.push_back({std::move(text), std::move(at), ""});
}

void Queue::named(const std::string& n) {
  Recorder::Impl& r = *dev_->rec;
  const std::string old = r.queues[index].name;
  const std::string name = r.declaration(n, "queue", old);
  r.queues[index].name = name;
  for (Command& d : r.decls)
    if (d.text.rfind("queue " + old + " ", 0) == 0)
      d.text = "queue " + name + d.text.substr(6 + old.size());
}

void Queue::UpdateTileMappings(ID3D12Resource*, UINT, const D3D12_TILED_RESOURCE_COORDINATE*,
                               const D3D12_TILE_REGION_SIZE*, ID3D12Heap*, UINT,
                               const D3D12_TILE_RANGE_FLAGS*, const UINT*, const UINT*,
                               D3D12_TILE_MAPPING_FLAGS) {
  dev_->rec->unmodelled("UpdateTileMappings", take());
}
void Queue::CopyTileMappings(ID3D12Resource*, const D3D12_TILED_RESOURCE_COORDINATE*,
                             ID3D12Resource*, const D3D12_TILED_RESOURCE_COORDINATE*,
                             const D3D12_TILE_REGION_SIZE*, D3D12_TILE_MAPPING_FLAGS) {
  dev_->rec->unmodelled("CopyTileMappings", take());
}

void Queue::ExecuteCommandLists(UINT n, ID3D12CommandList* const* lists) {
  const Origin at = take();
  Recorder::Impl& r = *dev_->rec;
  r.queues[index].executions.insert(r.queues[index].cmds.size());
  for (UINT i = 0; i < n; ++i) {
    auto* l = dynamic_cast<List*>(lists[i]);
    if (!l) continue;
    if (l->open)
      r.problems.push_back({"error", at.file, at.line, at.column, 0,
                            "ExecuteCommandLists: a command list that is not closed"});
    for (const ListCommand& c : l->cmds) {
      std::string text = c.text;
      if (!c.label.empty()) text = r.event_label(c.label, c.origin) + ": " + text;
      r.queues[index].cmds.push_back({std::move(text), c.origin, ""});
    }
  }
}

void Queue::SetMarker(UINT metadata, const void* data, UINT size) {
  take();
  std::string text;
  if (data && metadata == 1) text = static_cast<const char*>(data);
  if (data && metadata == 0) text = narrow(static_cast<const wchar_t*>(data));
  (void)size;
  marker = text.empty() ? "event" : text;
}

HRESULT Queue::Signal(ID3D12Fence* f, UINT64 v) {
  add(fmt::format("Signal({}, {})", dev_->fence_ref(static_cast<DxFence*>(f)->id), v), take());
  return S_OK;
}
HRESULT Queue::Wait(ID3D12Fence* f, UINT64 v) {
  add(fmt::format("Wait({}, {})", dev_->fence_ref(static_cast<DxFence*>(f)->id), v), take());
  return S_OK;
}
HRESULT Queue::Signal2X(ID3D12Fence* f, UINT64 v, D3D12XBOX_SYNC_FLAGS s) {
  const std::string fence = dev_->fence_ref(static_cast<DxFence*>(f)->id);
  add(s ? fmt::format("Signal2X({}, {}, {})", fence, v, sync_text(s))
        : fmt::format("Signal2X({}, {})", fence, v),
      take());
  return S_OK;
}
HRESULT Queue::WaitX(ID3D12Fence* f, UINT64 v, D3D12XBOX_SYNC_FLAGS s) {
  const std::string fence = dev_->fence_ref(static_cast<DxFence*>(f)->id);
  add(s ? fmt::format("WaitX({}, {}, {})", fence, v, sync_text(s))
        : fmt::format("WaitX({}, {})", fence, v),
      take());
  return S_OK;
}

// ---- syncproof's extension: accesses stated by the engine ----

namespace {
Access access(bool write, ID3D12Resource* r, Kind k, Stage s) {
  auto* x = dynamic_cast<DxResource*>(r);
  return {write, x ? x->device()->resource_ref(x->id) : std::string(), k, s};
}
}  // namespace

Access Reads(ID3D12Resource* resource, Kind kind, Stage stage) {
  return access(false, resource, kind, stage);
}
Access Writes(ID3D12Resource* resource, Kind kind, Stage stage) {
  return access(true, resource, kind, stage);
}
void SetAccesses(ID3D12GraphicsCommandList* list, std::vector<Access> accesses) {
  auto* l = dynamic_cast<List*>(list);
  if (!l) return;
  // A resource that is not the recording device's has no name in the recording.
  std::erase_if(accesses, [](const Access& a) { return a.resource.empty(); });
  l->override_accesses = std::move(accesses);
}

// ---- Recorder::Device ----

ID3D12Device* Recorder::Device() {
  if (!impl_->device) impl_->device.reset(new DeviceRecorder(impl_.get()));
  return &impl_->device->device;
}

}  // namespace syncproof::record
