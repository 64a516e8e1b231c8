#pragma once
// Internal to record/: the recording D3D12 objects behind Recorder::Device(). Each implements
// the public interface (<syncproof/d3d12_xs.h>) and records into the Recorder's Impl; resources,
// fences and queues are named by SetName and declared when the case text is made. Only the
// record/d3d12_*.cpp files include this (they see d3d12.h's Windows definitions).
#include <syncproof/d3d12_xs.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "record/impl.h"

namespace syncproof::record {

class DeviceRecorder;

template <class T>
T ignored() {
  if constexpr (std::is_same_v<T, HRESULT>)
    return E_NOTIMPL;
  else
    return T{};
}

std::string narrow(const wchar_t* s);

// IUnknown and ID3D12Object for an object implementing `Top` (which derives from the rest).
template <class Top, class... Bases>
class Object : public Top {
 public:
  explicit Object(DeviceRecorder* d) : dev_(d) {}
  virtual ~Object() = default;
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override {
    if (!out) return E_POINTER;
    *out = nullptr;
    if (match<Top, Bases...>(riid, out)) {
      AddRef();
      return S_OK;
    }
    return E_NOINTERFACE;
  }
  ULONG STDMETHODCALLTYPE AddRef() override { return ++refs_; }
  ULONG STDMETHODCALLTYPE Release() override { return refs_ ? --refs_ : 0; }  // never freed here
  DeviceRecorder* device() const { return dev_; }

 protected:
  template <class I, class... Rest>
  bool match(REFIID riid, void** out) {
    if constexpr (std::is_same_v<I, ID3DBlob>) {
      if constexpr (sizeof...(Rest) > 0) return match<Rest...>(riid, out);
      return false;
    }
    if (std::memcmp(&riid, &__uuidof(I), sizeof(GUID)) == 0) {
      *out = static_cast<I*>(this);
      return true;
    }
    if constexpr (sizeof...(Rest) > 0)
      return match<Rest...>(riid, out);
    else
      return false;
  }
  DeviceRecorder* dev_;
  ULONG refs_ = 1;
};

// ID3D12Object's private data and name for objects that derive from it.
template <class Top, class... Bases>
class Named : public Object<Top, Bases...> {
 public:
  using Object<Top, Bases...>::Object;
  HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, UINT* size, void* data) override {
    auto it = data_.find(key(guid));
    if (it == data_.end() || !size) return DXGI_ERROR_NOT_FOUND;
    if (data) std::memcpy(data, it->second.data(), std::min<size_t>(*size, it->second.size()));
    *size = static_cast<UINT>(it->second.size());
    return S_OK;
  }
  HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, UINT size, const void* data) override {
    const char* p = static_cast<const char*>(data);
    data_[key(guid)] = std::string(p, p ? size : 0);
    return S_OK;
  }
  HRESULT STDMETHODCALLTYPE SetPrivateDataInterface(REFGUID, const IUnknown*) override {
    return S_OK;
  }
  HRESULT STDMETHODCALLTYPE SetName(LPCWSTR name) override {
    named(narrow(name));
    return S_OK;
  }
  virtual void named(const std::string&) {}

 private:
  static std::string key(REFGUID g) { return std::string(reinterpret_cast<const char*>(&g), 16); }
  std::map<std::string, std::string> data_;
};

template <class Top, class... Bases>
class Child : public Named<Top, Bases..., ID3D12DeviceChild, ID3D12Object, IUnknown> {
 public:
  using Named<Top, Bases..., ID3D12DeviceChild, ID3D12Object, IUnknown>::Named;
  HRESULT STDMETHODCALLTYPE GetDevice(REFIID riid, void** out) override;  // below
};

// ---- the objects ----

struct ResourceInfo {
  std::string name;
  uint64_t va = 0, size = 0;
  bool texture = false, compressed = false, rt = false, ds = false;
  uint32_t state = 0;  // the initial D3D12_RESOURCE_STATES
  Origin origin;
};

class DxResource final : public Child<ID3D12Resource, ID3D12Pageable> {
 public:
  DxResource(DeviceRecorder* d, size_t id, D3D12_RESOURCE_DESC desc, ID3D12Heap* heap)
      : Child(d), id(id), desc(desc), heap(heap) {}
  HRESULT STDMETHODCALLTYPE Map(UINT, const D3D12_RANGE*, void** data) override;
  void STDMETHODCALLTYPE Unmap(UINT, const D3D12_RANGE*) override {}
  D3D12_RESOURCE_DESC STDMETHODCALLTYPE GetDesc() override { return desc; }
  D3D12_GPU_VIRTUAL_ADDRESS STDMETHODCALLTYPE GetGPUVirtualAddress() override;
  HRESULT STDMETHODCALLTYPE WriteToSubresource(UINT, const D3D12_BOX*, const void*, UINT,
                                               UINT) override {
    return S_OK;
  }
  HRESULT STDMETHODCALLTYPE ReadFromSubresource(void*, UINT, UINT, UINT,
                                                const D3D12_BOX*) override {
    return S_OK;
  }
  HRESULT STDMETHODCALLTYPE GetHeapProperties(D3D12_HEAP_PROPERTIES* p,
                                              D3D12_HEAP_FLAGS* f) override {
    if (p)
      *p = D3D12_HEAP_PROPERTIES{D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN,
                                 D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    if (f) *f = D3D12_HEAP_FLAG_NONE;
    return S_OK;
  }
  void named(const std::string& n) override;
  size_t id;
  D3D12_RESOURCE_DESC desc;
  ID3D12Heap* heap;
  std::vector<char> mapped;
};

class Heap final : public Child<ID3D12Heap, ID3D12Pageable> {
 public:
  Heap(DeviceRecorder* d, D3D12_HEAP_DESC desc, uint64_t va) : Child(d), desc(desc), va(va) {}
  D3D12_HEAP_DESC STDMETHODCALLTYPE GetDesc() override { return desc; }
  D3D12_HEAP_DESC desc;
  uint64_t va;
};

class DxFence final : public Child<ID3D12Fence, ID3D12Pageable> {
 public:
  DxFence(DeviceRecorder* d, size_t id, UINT64 v) : Child(d), id(id), value(v) {}
  UINT64 STDMETHODCALLTYPE GetCompletedValue() override { return value; }
  HRESULT STDMETHODCALLTYPE SetEventOnCompletion(UINT64, HANDLE) override { return S_OK; }
  HRESULT STDMETHODCALLTYPE Signal(UINT64 Value) override;  // the CPU's
  void STDMETHODCALLTYPE SyncproofAt(const char* file, unsigned line, unsigned column) override {
    at_ = {file ? file : "", line, column};
  }
  void named(const std::string& n) override;
  size_t id;
  UINT64 value;

 private:
  Origin at_;
};

class Allocator final : public Child<ID3D12CommandAllocator, ID3D12Pageable> {
 public:
  Allocator(DeviceRecorder* d, D3D12_COMMAND_LIST_TYPE t) : Child(d), type(t) {}
  HRESULT STDMETHODCALLTYPE Reset() override { return S_OK; }
  D3D12_COMMAND_LIST_TYPE type;
};

// A descriptor: what a view created on the recording device points at.
struct View {
  enum Type : uint8_t { Srv, Uav, Cbv, Rtv, Dsv } type = Srv;
  std::optional<size_t> resource;
  bool read_only_depth = false;
};

class DescriptorHeap final : public Child<ID3D12DescriptorHeap, ID3D12Pageable> {
 public:
  DescriptorHeap(DeviceRecorder* d, D3D12_DESCRIPTOR_HEAP_DESC desc, SIZE_T base)
      : Child(d), desc(desc), base(base) {}
  D3D12_DESCRIPTOR_HEAP_DESC STDMETHODCALLTYPE GetDesc() override { return desc; }
  D3D12_CPU_DESCRIPTOR_HANDLE STDMETHODCALLTYPE GetCPUDescriptorHandleForHeapStart() override {
    return {base};
  }
  D3D12_GPU_DESCRIPTOR_HANDLE STDMETHODCALLTYPE GetGPUDescriptorHandleForHeapStart() override {
    return {base};
  }
  D3D12_DESCRIPTOR_HEAP_DESC desc;
  SIZE_T base;
};

// A root signature as the recorder understands it: per parameter its type, shader visibility
// and descriptor ranges. `known` is false for a blob syncproof did not serialize.
struct RootParam {
  D3D12_ROOT_PARAMETER_TYPE type = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
  D3D12_SHADER_VISIBILITY visibility = D3D12_SHADER_VISIBILITY_ALL;
  struct Range {
    D3D12_DESCRIPTOR_RANGE_TYPE type;
    UINT count, offset;
  };
  std::vector<Range> ranges;
};

class RootSignature final : public Child<ID3D12RootSignature> {
 public:
  using Child::Child;
  bool known = false;
  std::vector<RootParam> params;
};

class PipelineState final : public Child<ID3D12PipelineState, ID3D12Pageable> {
 public:
  using Child::Child;
  HRESULT STDMETHODCALLTYPE GetCachedBlob(ID3DBlob**) override { return E_NOTIMPL; }
};

class CommandSignature final : public Child<ID3D12CommandSignature, ID3D12Pageable> {
 public:
  using Child::Child;
  enum Kind { Draw, Dispatch, Mesh } kind = Draw;
};

class QueryHeap final : public Child<ID3D12QueryHeap, ID3D12Pageable> {
 public:
  using Child::Child;
};

// dxguids has no IID for ID3D10Blob: a blob answers IUnknown only.
class Blob final : public Object<ID3DBlob, IUnknown> {
 public:
  explicit Blob(std::string bytes) : Object(nullptr), bytes(std::move(bytes)) {}
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override {
    if (!out) return E_POINTER;
    *out = nullptr;
    if (std::memcmp(&riid, &__uuidof(IUnknown), sizeof(GUID)) != 0) return E_NOINTERFACE;
    *out = static_cast<IUnknown*>(this);
    AddRef();
    return S_OK;
  }
  LPVOID STDMETHODCALLTYPE GetBufferPointer() override { return bytes.data(); }
  SIZE_T STDMETHODCALLTYPE GetBufferSize() override { return bytes.size(); }
  ULONG STDMETHODCALLTYPE Release() override {
    const ULONG n = --refs_;
    if (n == 0) delete this;
    return n;
  }
  std::string bytes;
};

class List;

class Queue final : public Child<ID3D12CommandQueue, ID3D12Pageable> {
 public:
  Queue(DeviceRecorder* d, size_t index, D3D12_COMMAND_QUEUE_DESC desc)
      : Child(d), index(index), desc(desc) {}
  void STDMETHODCALLTYPE UpdateTileMappings(ID3D12Resource*, UINT,
                                            const D3D12_TILED_RESOURCE_COORDINATE*,
                                            const D3D12_TILE_REGION_SIZE*, ID3D12Heap*, UINT,
                                            const D3D12_TILE_RANGE_FLAGS*, const UINT*, const UINT*,
                                            D3D12_TILE_MAPPING_FLAGS) override;
  void STDMETHODCALLTYPE CopyTileMappings(ID3D12Resource*, const D3D12_TILED_RESOURCE_COORDINATE*,
                                          ID3D12Resource*, const D3D12_TILED_RESOURCE_COORDINATE*,
                                          const D3D12_TILE_REGION_SIZE*,
                                          D3D12_TILE_MAPPING_FLAGS) override;
  void STDMETHODCALLTYPE ExecuteCommandLists(UINT n, ID3D12CommandList* const* lists) override;
  void STDMETHODCALLTYPE SetMarker(UINT Metadata, const void* pData, UINT Size) override;
  void STDMETHODCALLTYPE BeginEvent(UINT, const void*, UINT) override { take(); }
  void STDMETHODCALLTYPE EndEvent() override { take(); }
  HRESULT STDMETHODCALLTYPE Signal(ID3D12Fence* pFence, UINT64 Value) override;
  HRESULT STDMETHODCALLTYPE Wait(ID3D12Fence* pFence, UINT64 Value) override;
  HRESULT STDMETHODCALLTYPE GetTimestampFrequency(UINT64* f) override {
    if (f) *f = 100000000;
    return S_OK;
  }
  HRESULT STDMETHODCALLTYPE GetClockCalibration(UINT64* g, UINT64* c) override {
    if (g) *g = 0;
    if (c) *c = 0;
    return S_OK;
  }
  D3D12_COMMAND_QUEUE_DESC STDMETHODCALLTYPE GetDesc() override { return desc; }
  HRESULT STDMETHODCALLTYPE Signal2X(ID3D12Fence* pFence, UINT64 Value,
                                     D3D12XBOX_SYNC_FLAGS SyncFlags) override;
  HRESULT STDMETHODCALLTYPE WaitX(ID3D12Fence* pFence, UINT64 Value,
                                  D3D12XBOX_SYNC_FLAGS SyncFlags) override;
  void STDMETHODCALLTYPE SyncproofAt(const char* file, unsigned line, unsigned column) override {
    at_ = {file ? file : "", line, column};
  }
  void named(const std::string& n) override;
  Origin take() { return std::exchange(at_, Origin{}); }
  void add(std::string text, Origin at);

  size_t index;
  D3D12_COMMAND_QUEUE_DESC desc;
  std::string marker;

 private:
  Origin at_;
};

// One recorded command of a list: its label is given when the list is executed (unique names).
struct ListCommand {
  std::string label, text;
  Origin origin;
};

struct Binding {
  enum Type : uint8_t { None, Table, Cbv, Srv, Uav } type = None;
  uint64_t value = 0;  // a GPU descriptor handle or a GPU virtual address
};

class List final : public Child<ID3D12GraphicsCommandList8, ID3D12GraphicsCommandList7,
                                ID3D12GraphicsCommandList6, ID3D12GraphicsCommandList5,
                                ID3D12GraphicsCommandList4, ID3D12GraphicsCommandList3,
                                ID3D12GraphicsCommandList2, ID3D12GraphicsCommandList1,
                                ID3D12GraphicsCommandList, ID3D12CommandList> {
 public:
  List(DeviceRecorder* d, D3D12_COMMAND_LIST_TYPE t) : Child(d), type(t) {}
  D3D12_COMMAND_LIST_TYPE STDMETHODCALLTYPE GetType() override { return type; }
#include "record/d3d12_list_methods.inc"
  // Xbox
  void STDMETHODCALLTYPE SyncTopOfPipeX(D3D12XBOX_SYNC_FLAGS, D3D12XBOX_SYNC_CONTROL_FLAGS,
                                        D3D12_GPU_VIRTUAL_ADDRESS, SIZE_T) override;
  void STDMETHODCALLTYPE SyncBottomOfPipeX(D3D12XBOX_SYNC_FLAGS, D3D12XBOX_SYNC_CONTROL_FLAGS,
                                           D3D12_GPU_VIRTUAL_ADDRESS, SIZE_T) override;
  void STDMETHODCALLTYPE Write32BitValueBottomOfPipe2X(D3D12_GPU_VIRTUAL_ADDRESS, UINT32,
                                                       D3D12XBOX_SYNC_FLAGS,
                                                       D3D12XBOX_SYNC_CONTROL_FLAGS,
                                                       D3D12XBOX_WRITE_VALUE_BOP_FLAGS) override;
  void STDMETHODCALLTYPE Write64BitValueBottomOfPipe2X(D3D12_GPU_VIRTUAL_ADDRESS, UINT64,
                                                       D3D12XBOX_SYNC_FLAGS,
                                                       D3D12XBOX_SYNC_CONTROL_FLAGS,
                                                       D3D12XBOX_WRITE_VALUE_BOP_FLAGS) override;
  void STDMETHODCALLTYPE Wait32BitValueX(D3D12_GPU_VIRTUAL_ADDRESS, D3D12_COMPARISON_FUNC,
                                         UINT32) override;
  void STDMETHODCALLTYPE Wait64BitValueX(D3D12_GPU_VIRTUAL_ADDRESS, D3D12_COMPARISON_FUNC,
                                         UINT64) override;
  void STDMETHODCALLTYPE DispatchX(UINT, UINT, UINT, D3D12XBOX_DISPATCH_FLAGS) override;
  void STDMETHODCALLTYPE SyncproofAt(const char* file, unsigned line, unsigned column) override {
    at_ = {file ? file : "", line, column};
  }

  D3D12_COMMAND_LIST_TYPE type;
  bool open = true;
  std::vector<ListCommand> cmds;
  // SetAccesses (d3d12_xs.h): the next work command's accesses instead of what is bound.
  std::optional<std::vector<Access>> override_accesses;

 private:
  void skip() {
    at_ = {};
  }
  Origin take() {
    return std::exchange(at_, Origin{});
  }
  void add(std::string text, Origin at, bool work);
  void work(std::string api, std::vector<Access> accesses, Origin at);
  void draw(std::string api, bool indexed, Origin at);
  void bind_root(bool compute, UINT index, Binding b) {
    auto& v = compute ? compute_args_ : graphics_args_;
    if (v.size() <= index) v.resize(index + 1);
    v[index] = b;
  }
  void root_accesses(bool compute, std::vector<Access>& out);
  void view_access(const View& v, Stage stage, std::vector<Access>& out);
  void reset_bindings();

  Origin at_;
  std::vector<std::string> events_;
  std::string marker_;
  RootSignature *graphics_root_ = nullptr, *compute_root_ = nullptr;
  std::vector<Binding> graphics_args_, compute_args_;
  std::vector<size_t> rts_;
  std::optional<View> depth_;
  std::optional<size_t> index_buffer_;
  std::vector<size_t> vertex_buffers_, so_targets_;
};

class Device final : public Named<ID3D12Device, ID3D12Object, IUnknown> {
 public:
  explicit Device(DeviceRecorder* d) : Named(d) {}
#include "record/d3d12_device_methods.inc"
  void STDMETHODCALLTYPE SyncproofAt(const char* file, unsigned line, unsigned column) override {
    at_ = {file ? file : "", line, column};
  }

 private:
  Origin take() {
    return std::exchange(at_, Origin{});
  }
  Origin at_;
};

// The device and everything it made, owned by the Recorder.
class DeviceRecorder {
 public:
  explicit DeviceRecorder(Recorder::Impl* r) : rec(r), device(this) {}
  Recorder::Impl* rec;
  Device device;
  // Every object but resources and fences. Held with its own type's deleter: COM interfaces have
  // no virtual destructor, so deleting one through IUnknown* would skip the object's members.
  std::vector<std::shared_ptr<void>> objects;
  std::vector<std::unique_ptr<DxResource>> resources;
  std::vector<ResourceInfo> infos;  // per resource
  std::vector<std::unique_ptr<DxFence>> fences;
  std::vector<std::string> fence_names;
  std::map<SIZE_T, View> views;  // by descriptor handle
  std::vector<DescriptorHeap*> descriptor_heaps;
  uint64_t next_va = 0x100000000ull;
  SIZE_T next_descriptor = 0x10000000;
  std::optional<size_t> cpu_queue;  // the host queue for the CPU's fence signals
  static constexpr UINT kDescriptorSize = 32;

  template <class T, class... A>
  T* make(A&&... a) {
    auto p = std::make_unique<T>(this, std::forward<A>(a)...);
    T* raw = p.get();
    objects.push_back(std::shared_ptr<T>(std::move(p)));
    return raw;
  }
  uint64_t allocate(uint64_t size);
  std::optional<size_t> resource_at(uint64_t va) const;  // the resource holding a GPU VA
  std::string resource_ref(size_t id) const { return fmt_ref('R', id); }
  std::string fence_ref(size_t id) const { return fmt_ref('F', id); }
  static std::string fmt_ref(char kind, size_t id) {
    return "$" + std::string(1, kind) + std::to_string(id) + "$";
  }
  DescriptorHeap* heap_of(uint64_t handle) const;
  // The case text's declarations of resources, fences and labels, and the names references
  // stand for (ResolveRefs).
  std::vector<Command> declarations(std::map<uint64_t, std::string>& labels) const;
  std::string resolve(const std::string& text) const;
  std::set<uint64_t> label_addresses;
};

template <class Top, class... Bases>
HRESULT Child<Top, Bases...>::GetDevice(REFIID riid, void** out) {
  return this->dev_->device.QueryInterface(riid, out);
}

}  // namespace syncproof::record
