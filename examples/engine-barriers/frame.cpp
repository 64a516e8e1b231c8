// The engine's frame: the code under test, unchanged between the console build and the tests.
#include "frame.h"

namespace engine {

namespace {

template <class T>
struct Ref {  // a minimal ComPtr
  T* p = nullptr;
  ~Ref() {
    if (p) p->Release();
  }
  T* operator->() const { return p; }
  T** operator&() { return &p; }
  operator T*() const { return p; }
};

D3D12_RESOURCE_DESC buffer_desc(UINT64 size) {
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

D3D12_RESOURCE_DESC target_desc(UINT width, UINT height) {
  D3D12_RESOURCE_DESC d = {};
  d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
  d.Width = width;
  d.Height = height;
  d.DepthOrArraySize = 1;
  d.MipLevels = 1;
  d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  d.SampleDesc.Count = 1;
  d.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
  return d;
}

// One root parameter: a root view (CBV/SRV/UAV) or a one-range descriptor table.
Ref<ID3D12RootSignature> root_signature(ID3D12Device* device, D3D12_ROOT_PARAMETER_TYPE type,
                                        D3D12_SHADER_VISIBILITY visibility) {
  D3D12_DESCRIPTOR_RANGE range = {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, 0};
  D3D12_ROOT_PARAMETER param = {};
  param.ParameterType = type;
  param.ShaderVisibility = visibility;
  if (type == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE) param.DescriptorTable = {1, &range};
  D3D12_ROOT_SIGNATURE_DESC desc = {1, &param, 0, nullptr, D3D12_ROOT_SIGNATURE_FLAG_NONE};
  Ref<ID3DBlob> blob, error;
  Ref<ID3D12RootSignature> rs;
  D3D12SerializeRootSignature(&desc, D3D_ROOT_SIGNATURE_VERSION_1, &blob, &error);
  device->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(),
                              IID_PPV_ARGS(&rs));
  return rs;
}

}  // namespace

void render_frame(ID3D12Device* device, const FrameOptions& options) {
  // Queues, allocators, lists, the fence between the queues.
  D3D12_COMMAND_QUEUE_DESC gfx_desc = {D3D12_COMMAND_LIST_TYPE_DIRECT, 0,
                                       D3D12_COMMAND_QUEUE_FLAG_NONE, 0};
  D3D12_COMMAND_QUEUE_DESC acs_desc = {D3D12_COMMAND_LIST_TYPE_COMPUTE, 0,
                                       D3D12_COMMAND_QUEUE_FLAG_NONE, 0};
  Ref<ID3D12CommandQueue> gfx, acs;
  device->CreateCommandQueue(&gfx_desc, IID_PPV_ARGS(&gfx));
  device->CreateCommandQueue(&acs_desc, IID_PPV_ARGS(&acs));
  gfx->SetName(L"gfx");
  acs->SetName(L"acs");
  Ref<ID3D12CommandAllocator> gfx_alloc, acs_alloc;
  device->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_DIRECT, IID_PPV_ARGS(&gfx_alloc));
  device->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_COMPUTE, IID_PPV_ARGS(&acs_alloc));
  Ref<ID3D12GraphicsCommandList7> gl;
  Ref<ID3D12GraphicsCommandList6> cl;
  device->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_DIRECT, gfx_alloc, nullptr,
                            IID_PPV_ARGS(&gl));
  device->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_COMPUTE, acs_alloc, nullptr,
                            IID_PPV_ARGS(&cl));
  Ref<ID3D12Fence> simulated;
  device->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&simulated));
  simulated->SetName(L"simulated");

  // Resources: the particle buffer, the scene colour target, the back buffer.
  D3D12_HEAP_PROPERTIES heap = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN,
                                D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
  D3D12_RESOURCE_DESC particles_desc = buffer_desc(0x4000), target = target_desc(1920, 1080);
  Ref<ID3D12Resource> particles, scene, backbuffer;
  device->CreateCommittedResource(&heap, D3D12_HEAP_FLAG_NONE, &particles_desc,
                                  D3D12_RESOURCE_STATE_UNORDERED_ACCESS, nullptr,
                                  IID_PPV_ARGS(&particles));
  device->CreateCommittedResource(&heap, D3D12_HEAP_FLAG_NONE, &target,
                                  D3D12_RESOURCE_STATE_RENDER_TARGET, nullptr,
                                  IID_PPV_ARGS(&scene));
  device->CreateCommittedResource(&heap, D3D12_HEAP_FLAG_NONE, &target,
                                  D3D12_RESOURCE_STATE_RENDER_TARGET, nullptr,
                                  IID_PPV_ARGS(&backbuffer));
  particles->SetName(L"particles");
  scene->SetName(L"scene");
  backbuffer->SetName(L"backbuffer");

  // Descriptors: two render target views, the scene as a shader resource for post.
  D3D12_DESCRIPTOR_HEAP_DESC rtv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 2,
                                         D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
  D3D12_DESCRIPTOR_HEAP_DESC srv_desc = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1,
                                         D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
  Ref<ID3D12DescriptorHeap> rtvs, srvs;
  device->CreateDescriptorHeap(&rtv_desc, IID_PPV_ARGS(&rtvs));
  device->CreateDescriptorHeap(&srv_desc, IID_PPV_ARGS(&srvs));
  const UINT rtv_size = device->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_RTV);
  D3D12_CPU_DESCRIPTOR_HANDLE scene_rtv = rtvs->GetCPUDescriptorHandleForHeapStart();
  D3D12_CPU_DESCRIPTOR_HANDLE back_rtv = {scene_rtv.ptr + rtv_size};
  device->CreateRenderTargetView(scene, nullptr, scene_rtv);
  device->CreateRenderTargetView(backbuffer, nullptr, back_rtv);
  device->CreateShaderResourceView(scene, nullptr, srvs->GetCPUDescriptorHandleForHeapStart());

  Ref<ID3D12RootSignature> simulate_rs =
      root_signature(device, D3D12_ROOT_PARAMETER_TYPE_UAV, D3D12_SHADER_VISIBILITY_ALL);
  Ref<ID3D12RootSignature> draw_rs =
      root_signature(device, D3D12_ROOT_PARAMETER_TYPE_SRV, D3D12_SHADER_VISIBILITY_VERTEX);
  Ref<ID3D12RootSignature> post_rs = root_signature(
      device, D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE, D3D12_SHADER_VISIBILITY_PIXEL);

  // Async compute: simulate the particles, then make the writes reach GL2 and signal.
  PIXBeginEvent(cl.p, 0, "simulate");
  cl->SetComputeRootSignature(simulate_rs);
  cl->SetComputeRootUnorderedAccessView(0, particles->GetGPUVirtualAddress());
  cl->Dispatch(64, 1, 1);
  PIXEndEvent(cl.p);
  cl->SyncBottomOfPipeX(D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH, D3D12XBOX_SYNC_CONTROL_FLAG_NONE, 0,
                        D3D12XBOX_FLUSH_RANGE_ALL);
  cl->Close();
  ID3D12CommandList* compute_lists[] = {cl};
  acs->ExecuteCommandLists(1, compute_lists);
  acs->Signal2X(simulated, 1);

  // Graphics: wait for the simulation, draw the particles into the scene, transition the scene
  // for post-processing, post into the back buffer.
  if (options.wait_for_simulation) gfx->WaitX(simulated, 1);
  gl->SyncTopOfPipeX(D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE | D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE,
                     D3D12XBOX_SYNC_CONTROL_FLAG_NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL);
  PIXBeginEvent(gl.p, 0, "draw");
  gl->SetGraphicsRootSignature(draw_rs);
  gl->SetGraphicsRootShaderResourceView(0, particles->GetGPUVirtualAddress());
  gl->OMSetRenderTargets(1, &scene_rtv, FALSE, nullptr);
  gl->DrawInstanced(4, 4096, 0, 0);
  PIXEndEvent(gl.p);
  D3D12_RESOURCE_BARRIER to_srv = {};
  to_srv.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
  to_srv.Transition = {scene, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES,
                       D3D12_RESOURCE_STATE_RENDER_TARGET,
                       D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE};
  gl->ResourceBarrier(1, &to_srv);
  PIXBeginEvent(gl.p, 0, "post");
  ID3D12DescriptorHeap* heaps[] = {srvs};
  gl->SetDescriptorHeaps(1, heaps);
  gl->SetGraphicsRootSignature(post_rs);
  gl->SetGraphicsRootDescriptorTable(0, srvs->GetGPUDescriptorHandleForHeapStart());
  gl->OMSetRenderTargets(1, &back_rtv, FALSE, nullptr);
  gl->DrawInstanced(3, 1, 0, 0);
  PIXEndEvent(gl.p);
  gl->Close();
  ID3D12CommandList* graphics_lists[] = {gl};
  gfx->ExecuteCommandLists(1, graphics_lists);
}

}  // namespace engine
