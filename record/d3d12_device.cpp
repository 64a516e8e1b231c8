// The recording device (Recorder::Device()): queues, allocators, lists, fences, resources (GPU
// virtual addresses from a bump allocator; placed resources share their heap's addresses, so
// aliasing is by address as in the case language), descriptor heaps and views, root signatures
// (D3D12SerializeRootSignature writes what the recorder needs to read back), pipeline states,
// command signatures. Everything is owned by the Recorder.
#include <fmt/format.h>

#include "record/d3d12_objects.h"

namespace syncproof::record {

std::string narrow(const wchar_t* s) {
  std::string out;
  for (; s && *s; ++s) out += *s > 0 && *s < 0x80 ? static_cast<char>(*s) : '_';
  return out;
}

void DeviceDeleter::operator()(DeviceRecorder* d) const {
  delete d;
}

uint64_t DeviceRecorder::allocate(uint64_t size) {
  constexpr uint64_t kAlign = 0x10000;
  const uint64_t va = next_va;
  next_va += (std::max<uint64_t>(size, 1) + kAlign - 1) / kAlign * kAlign;
  return va;
}

std::optional<size_t> DeviceRecorder::resource_at(uint64_t va) const {
  // The last resource created at that address (placed resources alias: the newest is the one
  // an engine that just created it means).
  for (size_t i = infos.size(); i-- > 0;)
    if (va >= infos[i].va && va < infos[i].va + infos[i].size) return i;
  return std::nullopt;
}

DescriptorHeap* DeviceRecorder::heap_of(uint64_t handle) const {
  for (DescriptorHeap* h : descriptor_heaps)
    if (handle >= h->base && handle < h->base + uint64_t{h->desc.NumDescriptors} * kDescriptorSize)
      return h;
  return nullptr;
}

std::vector<Command> DeviceRecorder::declarations(std::map<uint64_t, std::string>& labels) const {
  std::vector<Command> out;
  for (const ResourceInfo& r : infos) {
    std::string text = r.texture ? fmt::format("texture {} 0x{:X} 0x{:X}{}", r.name, r.va, r.size,
                                               r.compressed ? " compressed" : "")
                                 : fmt::format("buffer {} 0x{:X} 0x{:X}", r.name, r.va, r.size);
    text += " state " + resource_states_text(r.state);
    out.push_back({std::move(text), r.origin, ""});
  }
  for (const std::string& f : fence_names) out.push_back({"fence " + f, {}, ""});
  for (uint64_t a : label_addresses) {
    if (labels.count(a)) continue;
    std::string name = fmt::format("label_0x{:X}", a);
    if (auto r = resource_at(a))
      name = fmt::format("{}.at_0x{:X}", infos[*r].name, a - infos[*r].va);
    out.push_back({fmt::format("label {} 0x{:X}", name, a), {}, ""});
    labels.emplace(a, std::move(name));
  }
  return out;
}

std::string DeviceRecorder::resolve(const std::string& text) const {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$' || i + 2 >= text.size() || (text[i + 1] != 'R' && text[i + 1] != 'F')) {
      out += text[i];
      continue;
    }
    const size_t end = text.find('$', i + 2);
    const size_t id = std::stoul(text.substr(i + 2, end - i - 2));
    out += text[i + 1] == 'R' ? infos[id].name : fence_names[id];
    i = end;
  }
  return out;
}

std::vector<Command> device_declarations(const DeviceRecorder& d,
                                         std::map<uint64_t, std::string>& labels) {
  return d.declarations(labels);
}
std::string device_resolve(const DeviceRecorder& d, const std::string& text) {
  return d.resolve(text);
}

void DxResource::named(const std::string& n) {
  dev_->infos[id].name = dev_->rec->declaration(n, "resource", dev_->infos[id].name);
}

D3D12_GPU_VIRTUAL_ADDRESS DxResource::GetGPUVirtualAddress() {
  return desc.Dimension == D3D12_RESOURCE_DIMENSION_BUFFER ? dev_->infos[id].va : 0;
}

HRESULT DxResource::Map(UINT, const D3D12_RANGE*, void** data) {
  if (mapped.empty()) mapped.resize(std::min<uint64_t>(dev_->infos[id].size, 64u << 20));
  if (data) *data = mapped.data();
  return S_OK;
}

void DxFence::named(const std::string& n) {
  dev_->fence_names[id] = dev_->rec->declaration(n, "fence", dev_->fence_names[id]);
}

HRESULT DxFence::Signal(UINT64 Value) {
  Recorder::Impl& r = *dev_->rec;
  if (!dev_->cpu_queue)
    dev_->cpu_queue = r.add_queue(r.declaration("cpu", "queue"), QueueType::Host, {});
  r.queues[*dev_->cpu_queue].cmds.push_back(
      {fmt::format("Signal({}, {})", dev_->fence_ref(id), Value), std::exchange(at_, {}), ""});
  value = Value;
  return S_OK;
}

// ---- ID3D12Device ----

namespace {

// A rough size for a texture: enough that distinct textures do not share addresses.
uint64_t texture_size(const D3D12_RESOURCE_DESC& d) {
  uint64_t bpp = 4;
  switch (d.Format) {
    case DXGI_FORMAT_R16G16B16A16_FLOAT:
    case DXGI_FORMAT_R16G16B16A16_UNORM:
    case DXGI_FORMAT_R32G32_FLOAT:
    case DXGI_FORMAT_D32_FLOAT_S8X24_UINT:
      bpp = 8;
      break;
    case DXGI_FORMAT_R32G32B32A32_FLOAT:
    case DXGI_FORMAT_R32G32B32A32_UINT:
      bpp = 16;
      break;
    default:
      break;
  }
  uint64_t size = d.Width * std::max<uint64_t>(d.Height, 1) *
                  std::max<uint64_t>(d.DepthOrArraySize, 1) * bpp *
                  std::max<uint64_t>(d.SampleDesc.Count, 1);
  if (d.MipLevels != 1) size += size / 3;
  return size;
}

template <class T>
HRESULT give(T* obj, REFIID riid, void** out) {
  if (!out) return S_FALSE;  // the "can it be created" form
  return obj->QueryInterface(riid, out);
}

}  // namespace

UINT Device::GetNodeCount() {
  return 1;
}

HRESULT Device::CreateCommandQueue(const D3D12_COMMAND_QUEUE_DESC* desc, REFIID riid, void** out) {
  Recorder::Impl& r = *dev_->rec;
  QueueType t =
      desc->Type == D3D12_COMMAND_LIST_TYPE_DIRECT ? QueueType::Graphics : QueueType::Compute;
  const char* base = desc->Type == D3D12_COMMAND_LIST_TYPE_DIRECT    ? "direct"
                     : desc->Type == D3D12_COMMAND_LIST_TYPE_COMPUTE ? "compute"
                                                                     : "copy";
  if (desc->Type != D3D12_COMMAND_LIST_TYPE_DIRECT && desc->Type != D3D12_COMMAND_LIST_TYPE_COMPUTE)
    r.unmodelled("CreateCommandQueue of a COPY or video queue (recorded as a compute queue)",
                 take());
  const size_t index = r.add_queue(r.declaration(base, "queue"), t, {});
  return give(dev_->make<Queue>(index, *desc), riid, out);
}

HRESULT Device::CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE type, REFIID riid, void** out) {
  return give(dev_->make<Allocator>(type), riid, out);
}

HRESULT Device::CreateGraphicsPipelineState(const D3D12_GRAPHICS_PIPELINE_STATE_DESC*, REFIID riid,
                                            void** out) {
  return give(dev_->make<PipelineState>(), riid, out);
}

HRESULT Device::CreateComputePipelineState(const D3D12_COMPUTE_PIPELINE_STATE_DESC*, REFIID riid,
                                           void** out) {
  return give(dev_->make<PipelineState>(), riid, out);
}

HRESULT Device::CreateCommandList(UINT, D3D12_COMMAND_LIST_TYPE type, ID3D12CommandAllocator*,
                                  ID3D12PipelineState*, REFIID riid, void** out) {
  return give(dev_->make<List>(type), riid, out);
}

HRESULT Device::CheckFeatureSupport(D3D12_FEATURE, void*, UINT) {
  return E_INVALIDARG;
}

HRESULT Device::CreateDescriptorHeap(const D3D12_DESCRIPTOR_HEAP_DESC* desc, REFIID riid,
                                     void** out) {
  const SIZE_T base = dev_->next_descriptor;
  dev_->next_descriptor += (SIZE_T{desc->NumDescriptors} + 1) * DeviceRecorder::kDescriptorSize;
  auto* h = dev_->make<DescriptorHeap>(*desc, base);
  dev_->descriptor_heaps.push_back(h);
  return give(h, riid, out);
}

UINT Device::GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE) {
  return DeviceRecorder::kDescriptorSize;
}

namespace {

constexpr char kRootMagic[4] = {'S', 'P', 'R', 'S'};

void put(std::string& s, uint32_t v) {
  s.append(reinterpret_cast<const char*>(&v), 4);
}
uint32_t get(const char*& p, const char* end) {
  uint32_t v = 0;
  if (end - p >= 4) std::memcpy(&v, p, 4), p += 4;
  return v;
}

template <class Param>
std::string serialize(UINT count, const Param* params) {
  std::string s(kRootMagic, 4);
  put(s, count);
  for (UINT i = 0; i < count; ++i) {
    const Param& p = params[i];
    put(s, p.ParameterType);
    put(s, p.ShaderVisibility);
    if (p.ParameterType != D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE) {
      put(s, 0);
      continue;
    }
    put(s, p.DescriptorTable.NumDescriptorRanges);
    UINT next = 0;
    for (UINT k = 0; k < p.DescriptorTable.NumDescriptorRanges; ++k) {
      const auto& r = p.DescriptorTable.pDescriptorRanges[k];
      const UINT offset =
          r.OffsetInDescriptorsFromTableStart == D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND
              ? next
              : r.OffsetInDescriptorsFromTableStart;
      put(s, r.RangeType);
      put(s, r.NumDescriptors);
      put(s, offset);
      next = r.NumDescriptors == UINT_MAX ? UINT_MAX : offset + r.NumDescriptors;
    }
  }
  return s;
}

}  // namespace

HRESULT Device::CreateRootSignature(UINT, const void* blob, SIZE_T size, REFIID riid, void** out) {
  const Origin at = take();
  auto* rs = dev_->make<RootSignature>();
  const char* p = static_cast<const char*>(blob);
  const char* end = p + size;
  if (size >= 8 && std::memcmp(p, kRootMagic, 4) == 0) {
    p += 4;
    rs->known = true;
    const uint32_t n = get(p, end);
    for (uint32_t i = 0; i < n && p < end; ++i) {
      RootParam rp;
      rp.type = static_cast<D3D12_ROOT_PARAMETER_TYPE>(get(p, end));
      rp.visibility = static_cast<D3D12_SHADER_VISIBILITY>(get(p, end));
      const uint32_t ranges = get(p, end);
      for (uint32_t k = 0; k < ranges; ++k) {
        RootParam::Range r;
        r.type = static_cast<D3D12_DESCRIPTOR_RANGE_TYPE>(get(p, end));
        r.count = get(p, end);
        r.offset = get(p, end);
        rp.ranges.push_back(r);
      }
      rs->params.push_back(std::move(rp));
    }
  } else {
    dev_->rec->unmodelled(
        "CreateRootSignature of a blob syncproof did not serialize (shader visibility and "
        "table sizes unknown: every stage, whole heaps)",
        at);
  }
  return give(rs, riid, out);
}

void Device::CreateConstantBufferView(const D3D12_CONSTANT_BUFFER_VIEW_DESC* desc,
                                      D3D12_CPU_DESCRIPTOR_HANDLE dest) {
  dev_->views[dest.ptr] = {View::Cbv,
                           desc ? dev_->resource_at(desc->BufferLocation) : std::nullopt};
}

namespace {
std::optional<size_t> id_of(ID3D12Resource* r) {
  if (!r) return std::nullopt;
  return static_cast<DxResource*>(r)->id;
}
}  // namespace

void Device::CreateShaderResourceView(ID3D12Resource* r, const D3D12_SHADER_RESOURCE_VIEW_DESC*,
                                      D3D12_CPU_DESCRIPTOR_HANDLE dest) {
  dev_->views[dest.ptr] = {View::Srv, id_of(r)};
}

void Device::CreateUnorderedAccessView(ID3D12Resource* r, ID3D12Resource*,
                                       const D3D12_UNORDERED_ACCESS_VIEW_DESC*,
                                       D3D12_CPU_DESCRIPTOR_HANDLE dest) {
  dev_->views[dest.ptr] = {View::Uav, id_of(r)};
}

void Device::CreateRenderTargetView(ID3D12Resource* r, const D3D12_RENDER_TARGET_VIEW_DESC*,
                                    D3D12_CPU_DESCRIPTOR_HANDLE dest) {
  dev_->views[dest.ptr] = {View::Rtv, id_of(r)};
}

void Device::CreateDepthStencilView(ID3D12Resource* r, const D3D12_DEPTH_STENCIL_VIEW_DESC* desc,
                                    D3D12_CPU_DESCRIPTOR_HANDLE dest) {
  View v{View::Dsv, id_of(r)};
  v.read_only_depth = desc && (desc->Flags & D3D12_DSV_FLAG_READ_ONLY_DEPTH);
  dev_->views[dest.ptr] = v;
}

void Device::CopyDescriptors(UINT NumDestDescriptorRanges,
                             const D3D12_CPU_DESCRIPTOR_HANDLE* pDestDescriptorRangeStarts,
                             const UINT* pDestDescriptorRangeSizes, UINT NumSrcDescriptorRanges,
                             const D3D12_CPU_DESCRIPTOR_HANDLE* pSrcDescriptorRangeStarts,
                             const UINT* pSrcDescriptorRangeSizes, D3D12_DESCRIPTOR_HEAP_TYPE) {
  std::vector<SIZE_T> src, dst;
  for (UINT i = 0; i < NumSrcDescriptorRanges; ++i)
    for (UINT k = 0; k < (pSrcDescriptorRangeSizes ? pSrcDescriptorRangeSizes[i] : 1); ++k)
      src.push_back(pSrcDescriptorRangeStarts[i].ptr + SIZE_T{k} * DeviceRecorder::kDescriptorSize);
  for (UINT i = 0; i < NumDestDescriptorRanges; ++i)
    for (UINT k = 0; k < (pDestDescriptorRangeSizes ? pDestDescriptorRangeSizes[i] : 1); ++k)
      dst.push_back(pDestDescriptorRangeStarts[i].ptr +
                    SIZE_T{k} * DeviceRecorder::kDescriptorSize);
  for (size_t i = 0; i < std::min(src.size(), dst.size()); ++i) {
    auto it = dev_->views.find(src[i]);
    if (it != dev_->views.end())
      dev_->views[dst[i]] = it->second;
    else
      dev_->views.erase(dst[i]);
  }
}

void Device::CopyDescriptorsSimple(UINT n, D3D12_CPU_DESCRIPTOR_HANDLE dst,
                                   D3D12_CPU_DESCRIPTOR_HANDLE src, D3D12_DESCRIPTOR_HEAP_TYPE t) {
  CopyDescriptors(1, &dst, &n, 1, &src, &n, t);
}

D3D12_RESOURCE_ALLOCATION_INFO Device::GetResourceAllocationInfo(UINT, UINT n,
                                                                 const D3D12_RESOURCE_DESC* d) {
  uint64_t size = 0;
  for (UINT i = 0; i < n; ++i)
    size += d[i].Dimension == D3D12_RESOURCE_DIMENSION_BUFFER ? d[i].Width : texture_size(d[i]);
  return {(size + 0xFFFF) / 0x10000 * 0x10000, 0x10000};
}

D3D12_HEAP_PROPERTIES Device::GetCustomHeapProperties(UINT, D3D12_HEAP_TYPE type) {
  return {type, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
}

namespace {

HRESULT make_resource(DeviceRecorder* dev, const D3D12_RESOURCE_DESC* desc,
                      D3D12_RESOURCE_STATES state, ID3D12Heap* heap, uint64_t va, REFIID riid,
                      void** out) {
  if (!desc) return E_INVALIDARG;
  const size_t id = dev->infos.size();
  ResourceInfo info;
  info.texture = desc->Dimension != D3D12_RESOURCE_DIMENSION_BUFFER;
  info.name = dev->rec->declaration(info.texture ? "texture" : "buffer", "resource");
  info.size = info.texture ? texture_size(*desc) : desc->Width;
  info.rt = desc->Flags & D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
  info.ds = desc->Flags & D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
  // Render targets get DCC and depth targets HTILE on RDNA2 (research §5).
  info.compressed = info.texture && (info.rt || info.ds);
  info.state = state;
  if (heap) {
    const auto* h = static_cast<Heap*>(heap);
    info.size = std::min<uint64_t>(std::max<uint64_t>(info.size, 1),
                                   h->desc.SizeInBytes > va ? h->desc.SizeInBytes - va : 1);
    info.va = h->va + va;
  } else {
    info.va = dev->allocate(info.size);
  }
  dev->infos.push_back(info);
  dev->resources.push_back(std::make_unique<DxResource>(dev, id, *desc, heap));
  return give(dev->resources.back().get(), riid, out);
}

}  // namespace

HRESULT Device::CreateCommittedResource(const D3D12_HEAP_PROPERTIES*, D3D12_HEAP_FLAGS,
                                        const D3D12_RESOURCE_DESC* desc,
                                        D3D12_RESOURCE_STATES state, const D3D12_CLEAR_VALUE*,
                                        REFIID riid, void** out) {
  return make_resource(dev_, desc, state, nullptr, 0, riid, out);
}

HRESULT Device::CreateHeap(const D3D12_HEAP_DESC* desc, REFIID riid, void** out) {
  return give(dev_->make<Heap>(*desc, dev_->allocate(desc->SizeInBytes)), riid, out);
}

HRESULT Device::CreatePlacedResource(ID3D12Heap* heap, UINT64 offset,
                                     const D3D12_RESOURCE_DESC* desc, D3D12_RESOURCE_STATES state,
                                     const D3D12_CLEAR_VALUE*, REFIID riid, void** out) {
  if (!heap) return E_INVALIDARG;
  return make_resource(dev_, desc, state, heap, offset, riid, out);
}

HRESULT Device::CreateReservedResource(const D3D12_RESOURCE_DESC* desc, D3D12_RESOURCE_STATES state,
                                       const D3D12_CLEAR_VALUE*, REFIID riid, void** out) {
  dev_->rec->unmodelled("CreateReservedResource (tile mappings; given its own addresses)", take());
  return make_resource(dev_, desc, state, nullptr, 0, riid, out);
}

HRESULT Device::CreateFence(UINT64 initial, D3D12_FENCE_FLAGS, REFIID riid, void** out) {
  const size_t id = dev_->fences.size();
  dev_->fence_names.push_back(dev_->rec->declaration("fence", "fence"));
  dev_->fences.push_back(std::make_unique<DxFence>(dev_, id, initial));
  return give(dev_->fences.back().get(), riid, out);
}

HRESULT Device::CreateQueryHeap(const D3D12_QUERY_HEAP_DESC*, REFIID riid, void** out) {
  return give(dev_->make<QueryHeap>(), riid, out);
}

HRESULT Device::CreateCommandSignature(const D3D12_COMMAND_SIGNATURE_DESC* desc,
                                       ID3D12RootSignature*, REFIID riid, void** out) {
  auto* cs = dev_->make<CommandSignature>();
  for (UINT i = 0; desc && i < desc->NumArgumentDescs; ++i) {
    const auto t = desc->pArgumentDescs[i].Type;
    if (t == D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH) cs->kind = CommandSignature::Dispatch;
    if (t == D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH_MESH) cs->kind = CommandSignature::Mesh;
  }
  return give(cs, riid, out);
}

LUID Device::GetAdapterLuid() {
  return LUID{};
}

}  // namespace syncproof::record

// ---- the functions of d3d12.dll that an engine's root signature code calls ----

extern "C" HRESULT WINAPI D3D12SerializeRootSignature(const D3D12_ROOT_SIGNATURE_DESC* desc,
                                                      D3D_ROOT_SIGNATURE_VERSION, ID3DBlob** blob,
                                                      ID3DBlob** error) {
  using namespace syncproof::record;
  if (error) *error = nullptr;
  if (!desc || !blob) return E_INVALIDARG;
  *blob = new Blob(serialize(desc->NumParameters, desc->pParameters));
  return S_OK;
}

extern "C" HRESULT WINAPI D3D12SerializeVersionedRootSignature(
    const D3D12_VERSIONED_ROOT_SIGNATURE_DESC* desc, ID3DBlob** blob, ID3DBlob** error) {
  using namespace syncproof::record;
  if (error) *error = nullptr;
  if (!desc || !blob) return E_INVALIDARG;
  if (desc->Version == D3D_ROOT_SIGNATURE_VERSION_1_0)
    *blob = new Blob(serialize(desc->Desc_1_0.NumParameters, desc->Desc_1_0.pParameters));
  else
    *blob = new Blob(serialize(desc->Desc_1_1.NumParameters, desc->Desc_1_1.pParameters));
  return S_OK;
}
