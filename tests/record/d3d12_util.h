#pragma once
// What the tests of the recording device share: a minimal ComPtr, as engines have, and resource
// descriptions. Included by the tests that see d3d12.h's Windows definitions only.
#include <doctest/doctest.h>

#include <syncproof/d3d12_xs.h>

#include <string>

namespace syncproof::record::testing {

template <class T>
struct Ref {  // a minimal ComPtr, as engines have
  T* p = nullptr;
  ~Ref() {
    if (p) p->Release();
  }
  T* operator->() const { return p; }
  T** operator&() { return &p; }
  operator T*() const { return p; }
};

inline D3D12_RESOURCE_DESC buffer(UINT64 size) {
  D3D12_RESOURCE_DESC d = {};
  d.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
  d.Width = size;
  d.Height = 1;
  d.DepthOrArraySize = 1;
  d.MipLevels = 1;
  d.SampleDesc.Count = 1;
  d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
  d.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
  return d;
}

inline D3D12_RESOURCE_DESC texture(D3D12_RESOURCE_FLAGS flags) {
  D3D12_RESOURCE_DESC d = {};
  d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
  d.Width = 256;
  d.Height = 256;
  d.DepthOrArraySize = 1;
  d.MipLevels = 1;
  d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  d.SampleDesc.Count = 1;
  d.Flags = flags;
  return d;
}

const D3D12_HEAP_PROPERTIES kDefaultHeap = {
    D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};

inline Ref<ID3D12Resource> committed(ID3D12Device* device, const D3D12_RESOURCE_DESC& desc,
                                     D3D12_RESOURCE_STATES state, const wchar_t* name) {
  Ref<ID3D12Resource> r;
  REQUIRE(SUCCEEDED(device->CreateCommittedResource(&kDefaultHeap, D3D12_HEAP_FLAG_NONE, &desc,
                                                    state, nullptr, IID_PPV_ARGS(&r))));
  REQUIRE(SUCCEEDED(r->SetName(name)));
  return r;
}

// A queue of `type` and a list of the same type with its allocator, held as `List`, as an engine
// sets up one pass.
template <class List>
void queue_and_list(ID3D12Device* device, D3D12_COMMAND_LIST_TYPE type,
                    Ref<ID3D12CommandQueue>& queue, Ref<ID3D12CommandAllocator>& alloc,
                    Ref<List>& list) {
  const D3D12_COMMAND_QUEUE_DESC qd = {type, 0, D3D12_COMMAND_QUEUE_FLAG_NONE, 0};
  REQUIRE(SUCCEEDED(device->CreateCommandQueue(&qd, IID_PPV_ARGS(&queue))));
  REQUIRE(SUCCEEDED(device->CreateCommandAllocator(type, IID_PPV_ARGS(&alloc))));
  REQUIRE(SUCCEEDED(device->CreateCommandList(0, type, alloc, nullptr, IID_PPV_ARGS(&list))));
}

inline bool has(const std::string& text, const std::string& line) {
  return text.find(line) != std::string::npos;
}

}  // namespace syncproof::record::testing
