#pragma once
// syncproof's stand-in for the console SDK's d3d12_xs.h in an engine's Linux test build.
//
// Every standard type, structure, enumeration and interface is the public declaration of
// <directx/d3d12.h> (Debian's directx-headers-dev, with its WSL adapter headers and dxguids for
// __uuidof/IID_PPV_ARGS). Added, as the Xbox Series reference pages (syncproof's seeds) give
// them:
//   - the D3D12XBOX_* enumerations: D3D12XBOX_SYNC_FLAGS and D3D12XBOX_DISPATCH_FLAGS with their
//     published values (checked against syncproof's flag catalogue when the library is built);
//     D3D12XBOX_SYNC_CONTROL_FLAGS, D3D12XBOX_WRITE_VALUE_BOP_FLAGS and
//     D3D12XBOX_FLUSH_RANGE_ALL have no published values: the numbers are syncproof's own;
//   - on ID3D12GraphicsCommandList6 (and so on List7 and List8): SyncTopOfPipeX,
//     SyncBottomOfPipeX, Write32/64BitValueBottomOfPipe2X, Wait32/64BitValueX, DispatchX;
//   - on ID3D12CommandQueue: Signal2X and WaitX.
// To add methods to List6 and the queue, the header's own ID3D12GraphicsCommandList6..8 and
// ID3D12CommandQueue are declared under other names (syncproof_d3d12_*), and these names are
// declared again here with the same methods (checked against the header's below) plus the X
// methods. Each also has a call-site overload of every method (generated from the header by
// scripts/gen_d3d12_xs.py): a call through a pointer to ID3D12GraphicsCommandList6 or later, or
// to ID3D12CommandQueue, tells the recording object the caller's file, line and column
// (syncproof::record::Where) before the real virtual method runs. A call through an
// ID3D12GraphicsCommandList..List5 pointer records the same command without its call site.
//
// Recording objects come from syncproof::record::Recorder::Device() (<syncproof/record.h>).
// Also here: PIXBeginEvent/PIXEndEvent/PIXSetMarker for command lists and queues (pix3.h is not
// available on Linux; define SYNCPROOF_NO_PIX to leave them out).
#if !defined(_WIN32)
#include <wsl/winadapter.h>
#endif

#define ID3D12GraphicsCommandList6 syncproof_d3d12_ID3D12GraphicsCommandList6
#define ID3D12GraphicsCommandList7 syncproof_d3d12_ID3D12GraphicsCommandList7
#define ID3D12GraphicsCommandList8 syncproof_d3d12_ID3D12GraphicsCommandList8
#define ID3D12CommandQueue syncproof_d3d12_ID3D12CommandQueue
#include <directx/d3d12.h>
#undef ID3D12GraphicsCommandList6
#undef ID3D12GraphicsCommandList7
#undef ID3D12GraphicsCommandList8
#undef ID3D12CommandQueue

#include <syncproof/record.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

// ---- the Xbox enumerations ----
enum D3D12XBOX_SYNC_FLAGS : UINT {
#define SYNCPROOF_X(name) name = ::syncproof::record::d3d12::name
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_NONE),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_ICACHE_INVALIDATE),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_ICACHE_RANGE),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_ICACHE_MARGIN),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_GL1_RANGE),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_GL1_MARGIN),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_MCACHE_WRITEBACK),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_MCACHE_INVALIDATE),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_PFP_SYNC_ME),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_KCACHE_INVALIDATE),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_GL0_INVALIDATE),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE_UNSHARED),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_GL2_VOLATILE),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_GL2_RANGE),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_GL2_MARGIN),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_SYNC_CPDMA),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_DATA_FLUSH),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_DATA_FLUSH),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_VS_PARTIAL_FLUSH),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_PS_PARTIAL_FLUSH),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_STREAMOUT_FLUSH),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_BASE_COHERENCY),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_INVALIDATE),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_INVALIDATE),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_META_FLUSH),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_META_FLUSH),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_COHERENCY),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_COHERENCY),
  SYNCPROOF_X(D3D12XBOX_SYNC_FLAG_IDLE),
};
DEFINE_ENUM_FLAG_OPERATORS(D3D12XBOX_SYNC_FLAGS)

enum D3D12XBOX_DISPATCH_FLAGS : UINT {
  SYNCPROOF_X(D3D12XBOX_DISPATCH_FLAG_NONE),
  SYNCPROOF_X(D3D12XBOX_DISPATCH_FLAG_FORCE_START_AT_000),
  SYNCPROOF_X(D3D12XBOX_DISPATCH_FLAG_ENABLE_ORDERED_APPEND),
  SYNCPROOF_X(D3D12XBOX_DISPATCH_FLAG_ORDERED_APPEND_WAVEID_PER_THREADGROUP),
  SYNCPROOF_X(D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS),
  SYNCPROOF_X(D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER),
  SYNCPROOF_X(D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_VECTOR_L1),
  SYNCPROOF_X(D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_SCALAR_L1),
  SYNCPROOF_X(D3D12XBOX_DISPATCH_FLAG_INVALIDATE_VOLATILE_SCALAR_L1),
  SYNCPROOF_X(D3D12XBOX_DISPATCH_FLAG_INVALIDATE_VOLATILE_VECTOR_L1),
  SYNCPROOF_X(D3D12XBOX_DISPATCH_FLAG_W32),
};
DEFINE_ENUM_FLAG_OPERATORS(D3D12XBOX_DISPATCH_FLAGS)

// No published values: syncproof's numbering (pass these constants, not numbers).
enum D3D12XBOX_SYNC_CONTROL_FLAGS : UINT {
  SYNCPROOF_X(D3D12XBOX_SYNC_CONTROL_FLAG_NONE),
  SYNCPROOF_X(D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_PFP),
  SYNCPROOF_X(D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_CE),
  SYNCPROOF_X(D3D12XBOX_SYNC_CONTROL_FLAG_IDLE_SELECT_ENGINE_PFP),
  SYNCPROOF_X(D3D12XBOX_SYNC_CONTROL_FLAG_IDLE_SELECT_ENGINE_CE),
  SYNCPROOF_X(D3D12XBOX_SYNC_CONTROL_FLAG_CPDMA_SELECT_ENGINE_PFP),
  SYNCPROOF_X(D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_FORWARD),
  SYNCPROOF_X(D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_REVERSE),
};
DEFINE_ENUM_FLAG_OPERATORS(D3D12XBOX_SYNC_CONTROL_FLAGS)

enum D3D12XBOX_WRITE_VALUE_BOP_FLAGS : UINT {
  SYNCPROOF_X(D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE),
  SYNCPROOF_X(D3D12XBOX_WRITE_VALUE_BOP_FLAG_GPU_TIMESTAMP),
  SYNCPROOF_X(D3D12XBOX_WRITE_VALUE_BOP_FLAG_SYSTEM_TIMESTAMP),
#undef SYNCPROOF_X
};
DEFINE_ENUM_FLAG_OPERATORS(D3D12XBOX_WRITE_VALUE_BOP_FLAGS)

// BaseAddress 0 with this SizeInBytes is the whole memory.
static constexpr SIZE_T D3D12XBOX_FLUSH_RANGE_ALL =
    static_cast<SIZE_T>(::syncproof::record::d3d12::D3D12XBOX_FLUSH_RANGE_ALL);

// ---- the interfaces with the Xbox methods ----
// clang-format off
// ---- begin generated call-site overloads ----
// Generated by scripts/gen_d3d12_xs.py from the public d3d12.h: do not edit by hand.
#define SYNCPROOF_D3D12_LIST6_CALLS \
  HRESULT Close(::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    return static_cast<syncproof_d3d12_List6Methods*>(this)->Close(); \
  } \
  HRESULT Reset(ID3D12CommandAllocator *pAllocator, ID3D12PipelineState *pInitialState, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    return static_cast<syncproof_d3d12_List6Methods*>(this)->Reset(pAllocator, pInitialState); \
  } \
  void ClearState(ID3D12PipelineState *pPipelineState, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->ClearState(pPipelineState); \
  } \
  void DrawInstanced(UINT VertexCountPerInstance, UINT InstanceCount, UINT StartVertexLocation, UINT StartInstanceLocation, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->DrawInstanced(VertexCountPerInstance, InstanceCount, StartVertexLocation, StartInstanceLocation); \
  } \
  void DrawIndexedInstanced(UINT IndexCountPerInstance, UINT InstanceCount, UINT StartIndexLocation, INT BaseVertexLocation, UINT StartInstanceLocation, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->DrawIndexedInstanced(IndexCountPerInstance, InstanceCount, StartIndexLocation, BaseVertexLocation, StartInstanceLocation); \
  } \
  void Dispatch(UINT ThreadGroupCountX, UINT ThreadGroupCountY, UINT ThreadGroupCountZ, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->Dispatch(ThreadGroupCountX, ThreadGroupCountY, ThreadGroupCountZ); \
  } \
  void CopyBufferRegion(ID3D12Resource *pDstBuffer, UINT64 DstOffset, ID3D12Resource *pSrcBuffer, UINT64 SrcOffset, UINT64 NumBytes, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->CopyBufferRegion(pDstBuffer, DstOffset, pSrcBuffer, SrcOffset, NumBytes); \
  } \
  void CopyTextureRegion(const D3D12_TEXTURE_COPY_LOCATION *pDst, UINT DstX, UINT DstY, UINT DstZ, const D3D12_TEXTURE_COPY_LOCATION *pSrc, const D3D12_BOX *pSrcBox, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->CopyTextureRegion(pDst, DstX, DstY, DstZ, pSrc, pSrcBox); \
  } \
  void CopyResource(ID3D12Resource *pDstResource, ID3D12Resource *pSrcResource, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->CopyResource(pDstResource, pSrcResource); \
  } \
  void CopyTiles(ID3D12Resource *pTiledResource, const D3D12_TILED_RESOURCE_COORDINATE *pTileRegionStartCoordinate, const D3D12_TILE_REGION_SIZE *pTileRegionSize, ID3D12Resource *pBuffer, UINT64 BufferStartOffsetInBytes, D3D12_TILE_COPY_FLAGS Flags, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->CopyTiles(pTiledResource, pTileRegionStartCoordinate, pTileRegionSize, pBuffer, BufferStartOffsetInBytes, Flags); \
  } \
  void ResolveSubresource(ID3D12Resource *pDstResource, UINT DstSubresource, ID3D12Resource *pSrcResource, UINT SrcSubresource, DXGI_FORMAT Format, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->ResolveSubresource(pDstResource, DstSubresource, pSrcResource, SrcSubresource, Format); \
  } \
  void IASetPrimitiveTopology(D3D12_PRIMITIVE_TOPOLOGY PrimitiveTopology, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->IASetPrimitiveTopology(PrimitiveTopology); \
  } \
  void RSSetViewports(UINT NumViewports, const D3D12_VIEWPORT *pViewports, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->RSSetViewports(NumViewports, pViewports); \
  } \
  void RSSetScissorRects(UINT NumRects, const D3D12_RECT *pRects, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->RSSetScissorRects(NumRects, pRects); \
  } \
  void OMSetBlendFactor(const FLOAT BlendFactor[ 4 ], ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->OMSetBlendFactor(BlendFactor); \
  } \
  void OMSetStencilRef(UINT StencilRef, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->OMSetStencilRef(StencilRef); \
  } \
  void SetPipelineState(ID3D12PipelineState *pPipelineState, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetPipelineState(pPipelineState); \
  } \
  void ResourceBarrier(UINT NumBarriers, const D3D12_RESOURCE_BARRIER *pBarriers, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->ResourceBarrier(NumBarriers, pBarriers); \
  } \
  void ExecuteBundle(ID3D12GraphicsCommandList *pCommandList, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->ExecuteBundle(pCommandList); \
  } \
  void SetDescriptorHeaps(UINT NumDescriptorHeaps, ID3D12DescriptorHeap *const *ppDescriptorHeaps, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetDescriptorHeaps(NumDescriptorHeaps, ppDescriptorHeaps); \
  } \
  void SetComputeRootSignature(ID3D12RootSignature *pRootSignature, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetComputeRootSignature(pRootSignature); \
  } \
  void SetGraphicsRootSignature(ID3D12RootSignature *pRootSignature, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetGraphicsRootSignature(pRootSignature); \
  } \
  void SetComputeRootDescriptorTable(UINT RootParameterIndex, D3D12_GPU_DESCRIPTOR_HANDLE BaseDescriptor, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetComputeRootDescriptorTable(RootParameterIndex, BaseDescriptor); \
  } \
  void SetGraphicsRootDescriptorTable(UINT RootParameterIndex, D3D12_GPU_DESCRIPTOR_HANDLE BaseDescriptor, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetGraphicsRootDescriptorTable(RootParameterIndex, BaseDescriptor); \
  } \
  void SetComputeRoot32BitConstant(UINT RootParameterIndex, UINT SrcData, UINT DestOffsetIn32BitValues, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetComputeRoot32BitConstant(RootParameterIndex, SrcData, DestOffsetIn32BitValues); \
  } \
  void SetGraphicsRoot32BitConstant(UINT RootParameterIndex, UINT SrcData, UINT DestOffsetIn32BitValues, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetGraphicsRoot32BitConstant(RootParameterIndex, SrcData, DestOffsetIn32BitValues); \
  } \
  void SetComputeRoot32BitConstants(UINT RootParameterIndex, UINT Num32BitValuesToSet, const void *pSrcData, UINT DestOffsetIn32BitValues, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetComputeRoot32BitConstants(RootParameterIndex, Num32BitValuesToSet, pSrcData, DestOffsetIn32BitValues); \
  } \
  void SetGraphicsRoot32BitConstants(UINT RootParameterIndex, UINT Num32BitValuesToSet, const void *pSrcData, UINT DestOffsetIn32BitValues, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetGraphicsRoot32BitConstants(RootParameterIndex, Num32BitValuesToSet, pSrcData, DestOffsetIn32BitValues); \
  } \
  void SetComputeRootConstantBufferView(UINT RootParameterIndex, D3D12_GPU_VIRTUAL_ADDRESS BufferLocation, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetComputeRootConstantBufferView(RootParameterIndex, BufferLocation); \
  } \
  void SetGraphicsRootConstantBufferView(UINT RootParameterIndex, D3D12_GPU_VIRTUAL_ADDRESS BufferLocation, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetGraphicsRootConstantBufferView(RootParameterIndex, BufferLocation); \
  } \
  void SetComputeRootShaderResourceView(UINT RootParameterIndex, D3D12_GPU_VIRTUAL_ADDRESS BufferLocation, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetComputeRootShaderResourceView(RootParameterIndex, BufferLocation); \
  } \
  void SetGraphicsRootShaderResourceView(UINT RootParameterIndex, D3D12_GPU_VIRTUAL_ADDRESS BufferLocation, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetGraphicsRootShaderResourceView(RootParameterIndex, BufferLocation); \
  } \
  void SetComputeRootUnorderedAccessView(UINT RootParameterIndex, D3D12_GPU_VIRTUAL_ADDRESS BufferLocation, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetComputeRootUnorderedAccessView(RootParameterIndex, BufferLocation); \
  } \
  void SetGraphicsRootUnorderedAccessView(UINT RootParameterIndex, D3D12_GPU_VIRTUAL_ADDRESS BufferLocation, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetGraphicsRootUnorderedAccessView(RootParameterIndex, BufferLocation); \
  } \
  void IASetIndexBuffer(const D3D12_INDEX_BUFFER_VIEW *pView, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->IASetIndexBuffer(pView); \
  } \
  void IASetVertexBuffers(UINT StartSlot, UINT NumViews, const D3D12_VERTEX_BUFFER_VIEW *pViews, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->IASetVertexBuffers(StartSlot, NumViews, pViews); \
  } \
  void SOSetTargets(UINT StartSlot, UINT NumViews, const D3D12_STREAM_OUTPUT_BUFFER_VIEW *pViews, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SOSetTargets(StartSlot, NumViews, pViews); \
  } \
  void OMSetRenderTargets(UINT NumRenderTargetDescriptors, const D3D12_CPU_DESCRIPTOR_HANDLE *pRenderTargetDescriptors, BOOL RTsSingleHandleToDescriptorRange, const D3D12_CPU_DESCRIPTOR_HANDLE *pDepthStencilDescriptor, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->OMSetRenderTargets(NumRenderTargetDescriptors, pRenderTargetDescriptors, RTsSingleHandleToDescriptorRange, pDepthStencilDescriptor); \
  } \
  void ClearDepthStencilView(D3D12_CPU_DESCRIPTOR_HANDLE DepthStencilView, D3D12_CLEAR_FLAGS ClearFlags, FLOAT Depth, UINT8 Stencil, UINT NumRects, const D3D12_RECT *pRects, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->ClearDepthStencilView(DepthStencilView, ClearFlags, Depth, Stencil, NumRects, pRects); \
  } \
  void ClearRenderTargetView(D3D12_CPU_DESCRIPTOR_HANDLE RenderTargetView, const FLOAT ColorRGBA[ 4 ], UINT NumRects, const D3D12_RECT *pRects, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->ClearRenderTargetView(RenderTargetView, ColorRGBA, NumRects, pRects); \
  } \
  void ClearUnorderedAccessViewUint(D3D12_GPU_DESCRIPTOR_HANDLE ViewGPUHandleInCurrentHeap, D3D12_CPU_DESCRIPTOR_HANDLE ViewCPUHandle, ID3D12Resource *pResource, const UINT Values[ 4 ], UINT NumRects, const D3D12_RECT *pRects, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->ClearUnorderedAccessViewUint(ViewGPUHandleInCurrentHeap, ViewCPUHandle, pResource, Values, NumRects, pRects); \
  } \
  void ClearUnorderedAccessViewFloat(D3D12_GPU_DESCRIPTOR_HANDLE ViewGPUHandleInCurrentHeap, D3D12_CPU_DESCRIPTOR_HANDLE ViewCPUHandle, ID3D12Resource *pResource, const FLOAT Values[ 4 ], UINT NumRects, const D3D12_RECT *pRects, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->ClearUnorderedAccessViewFloat(ViewGPUHandleInCurrentHeap, ViewCPUHandle, pResource, Values, NumRects, pRects); \
  } \
  void DiscardResource(ID3D12Resource *pResource, const D3D12_DISCARD_REGION *pRegion, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->DiscardResource(pResource, pRegion); \
  } \
  void BeginQuery(ID3D12QueryHeap *pQueryHeap, D3D12_QUERY_TYPE Type, UINT Index, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->BeginQuery(pQueryHeap, Type, Index); \
  } \
  void EndQuery(ID3D12QueryHeap *pQueryHeap, D3D12_QUERY_TYPE Type, UINT Index, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->EndQuery(pQueryHeap, Type, Index); \
  } \
  void ResolveQueryData(ID3D12QueryHeap *pQueryHeap, D3D12_QUERY_TYPE Type, UINT StartIndex, UINT NumQueries, ID3D12Resource *pDestinationBuffer, UINT64 AlignedDestinationBufferOffset, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->ResolveQueryData(pQueryHeap, Type, StartIndex, NumQueries, pDestinationBuffer, AlignedDestinationBufferOffset); \
  } \
  void SetPredication(ID3D12Resource *pBuffer, UINT64 AlignedBufferOffset, D3D12_PREDICATION_OP Operation, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetPredication(pBuffer, AlignedBufferOffset, Operation); \
  } \
  void SetMarker(UINT Metadata, const void *pData, UINT Size, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetMarker(Metadata, pData, Size); \
  } \
  void BeginEvent(UINT Metadata, const void *pData, UINT Size, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->BeginEvent(Metadata, pData, Size); \
  } \
  void EndEvent(::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->EndEvent(); \
  } \
  void ExecuteIndirect(ID3D12CommandSignature *pCommandSignature, UINT MaxCommandCount, ID3D12Resource *pArgumentBuffer, UINT64 ArgumentBufferOffset, ID3D12Resource *pCountBuffer, UINT64 CountBufferOffset, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->ExecuteIndirect(pCommandSignature, MaxCommandCount, pArgumentBuffer, ArgumentBufferOffset, pCountBuffer, CountBufferOffset); \
  } \
  void AtomicCopyBufferUINT(ID3D12Resource *pDstBuffer, UINT64 DstOffset, ID3D12Resource *pSrcBuffer, UINT64 SrcOffset, UINT Dependencies, ID3D12Resource *const *ppDependentResources, const D3D12_SUBRESOURCE_RANGE_UINT64 *pDependentSubresourceRanges, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->AtomicCopyBufferUINT(pDstBuffer, DstOffset, pSrcBuffer, SrcOffset, Dependencies, ppDependentResources, pDependentSubresourceRanges); \
  } \
  void AtomicCopyBufferUINT64(ID3D12Resource *pDstBuffer, UINT64 DstOffset, ID3D12Resource *pSrcBuffer, UINT64 SrcOffset, UINT Dependencies, ID3D12Resource *const *ppDependentResources, const D3D12_SUBRESOURCE_RANGE_UINT64 *pDependentSubresourceRanges, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->AtomicCopyBufferUINT64(pDstBuffer, DstOffset, pSrcBuffer, SrcOffset, Dependencies, ppDependentResources, pDependentSubresourceRanges); \
  } \
  void OMSetDepthBounds(FLOAT Min, FLOAT Max, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->OMSetDepthBounds(Min, Max); \
  } \
  void SetSamplePositions(UINT NumSamplesPerPixel, UINT NumPixels, D3D12_SAMPLE_POSITION *pSamplePositions, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetSamplePositions(NumSamplesPerPixel, NumPixels, pSamplePositions); \
  } \
  void ResolveSubresourceRegion(ID3D12Resource *pDstResource, UINT DstSubresource, UINT DstX, UINT DstY, ID3D12Resource *pSrcResource, UINT SrcSubresource, D3D12_RECT *pSrcRect, DXGI_FORMAT Format, D3D12_RESOLVE_MODE ResolveMode, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->ResolveSubresourceRegion(pDstResource, DstSubresource, DstX, DstY, pSrcResource, SrcSubresource, pSrcRect, Format, ResolveMode); \
  } \
  void SetViewInstanceMask(UINT Mask, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetViewInstanceMask(Mask); \
  } \
  void WriteBufferImmediate(UINT Count, const D3D12_WRITEBUFFERIMMEDIATE_PARAMETER *pParams, const D3D12_WRITEBUFFERIMMEDIATE_MODE *pModes, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->WriteBufferImmediate(Count, pParams, pModes); \
  } \
  void SetProtectedResourceSession(ID3D12ProtectedResourceSession *pProtectedResourceSession, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetProtectedResourceSession(pProtectedResourceSession); \
  } \
  void BeginRenderPass(UINT NumRenderTargets, const D3D12_RENDER_PASS_RENDER_TARGET_DESC *pRenderTargets, const D3D12_RENDER_PASS_DEPTH_STENCIL_DESC *pDepthStencil, D3D12_RENDER_PASS_FLAGS Flags, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->BeginRenderPass(NumRenderTargets, pRenderTargets, pDepthStencil, Flags); \
  } \
  void EndRenderPass(::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->EndRenderPass(); \
  } \
  void InitializeMetaCommand(ID3D12MetaCommand *pMetaCommand, const void *pInitializationParametersData, SIZE_T InitializationParametersDataSizeInBytes, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->InitializeMetaCommand(pMetaCommand, pInitializationParametersData, InitializationParametersDataSizeInBytes); \
  } \
  void ExecuteMetaCommand(ID3D12MetaCommand *pMetaCommand, const void *pExecutionParametersData, SIZE_T ExecutionParametersDataSizeInBytes, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->ExecuteMetaCommand(pMetaCommand, pExecutionParametersData, ExecutionParametersDataSizeInBytes); \
  } \
  void BuildRaytracingAccelerationStructure(const D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_DESC *pDesc, UINT NumPostbuildInfoDescs, const D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC *pPostbuildInfoDescs, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->BuildRaytracingAccelerationStructure(pDesc, NumPostbuildInfoDescs, pPostbuildInfoDescs); \
  } \
  void EmitRaytracingAccelerationStructurePostbuildInfo(const D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC *pDesc, UINT NumSourceAccelerationStructures, const D3D12_GPU_VIRTUAL_ADDRESS *pSourceAccelerationStructureData, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->EmitRaytracingAccelerationStructurePostbuildInfo(pDesc, NumSourceAccelerationStructures, pSourceAccelerationStructureData); \
  } \
  void CopyRaytracingAccelerationStructure(D3D12_GPU_VIRTUAL_ADDRESS DestAccelerationStructureData, D3D12_GPU_VIRTUAL_ADDRESS SourceAccelerationStructureData, D3D12_RAYTRACING_ACCELERATION_STRUCTURE_COPY_MODE Mode, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->CopyRaytracingAccelerationStructure(DestAccelerationStructureData, SourceAccelerationStructureData, Mode); \
  } \
  void SetPipelineState1(ID3D12StateObject *pStateObject, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->SetPipelineState1(pStateObject); \
  } \
  void DispatchRays(const D3D12_DISPATCH_RAYS_DESC *pDesc, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->DispatchRays(pDesc); \
  } \
  void RSSetShadingRate(D3D12_SHADING_RATE baseShadingRate, const D3D12_SHADING_RATE_COMBINER *combiners, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->RSSetShadingRate(baseShadingRate, combiners); \
  } \
  void RSSetShadingRateImage(ID3D12Resource *shadingRateImage, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->RSSetShadingRateImage(shadingRateImage); \
  } \
  void DispatchMesh(UINT ThreadGroupCountX, UINT ThreadGroupCountY, UINT ThreadGroupCountZ, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List6Methods*>(this)->DispatchMesh(ThreadGroupCountX, ThreadGroupCountY, ThreadGroupCountZ); \
  }

#define SYNCPROOF_D3D12_LIST7_CALLS \
  void Barrier(UINT32 NumBarrierGroups, const D3D12_BARRIER_GROUP *pBarrierGroups, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List7Methods*>(this)->Barrier(NumBarrierGroups, pBarrierGroups); \
  }

#define SYNCPROOF_D3D12_LIST8_CALLS \
  void OMSetFrontAndBackStencilRef(UINT FrontStencilRef, UINT BackStencilRef, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_List8Methods*>(this)->OMSetFrontAndBackStencilRef(FrontStencilRef, BackStencilRef); \
  }

#define SYNCPROOF_D3D12_QUEUE_CALLS \
  void UpdateTileMappings(ID3D12Resource *pResource, UINT NumResourceRegions, const D3D12_TILED_RESOURCE_COORDINATE *pResourceRegionStartCoordinates, const D3D12_TILE_REGION_SIZE *pResourceRegionSizes, ID3D12Heap *pHeap, UINT NumRanges, const D3D12_TILE_RANGE_FLAGS *pRangeFlags, const UINT *pHeapRangeStartOffsets, const UINT *pRangeTileCounts, D3D12_TILE_MAPPING_FLAGS Flags, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_QueueMethods*>(this)->UpdateTileMappings(pResource, NumResourceRegions, pResourceRegionStartCoordinates, pResourceRegionSizes, pHeap, NumRanges, pRangeFlags, pHeapRangeStartOffsets, pRangeTileCounts, Flags); \
  } \
  void CopyTileMappings(ID3D12Resource *pDstResource, const D3D12_TILED_RESOURCE_COORDINATE *pDstRegionStartCoordinate, ID3D12Resource *pSrcResource, const D3D12_TILED_RESOURCE_COORDINATE *pSrcRegionStartCoordinate, const D3D12_TILE_REGION_SIZE *pRegionSize, D3D12_TILE_MAPPING_FLAGS Flags, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_QueueMethods*>(this)->CopyTileMappings(pDstResource, pDstRegionStartCoordinate, pSrcResource, pSrcRegionStartCoordinate, pRegionSize, Flags); \
  } \
  void ExecuteCommandLists(UINT NumCommandLists, ID3D12CommandList *const *ppCommandLists, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_QueueMethods*>(this)->ExecuteCommandLists(NumCommandLists, ppCommandLists); \
  } \
  void SetMarker(UINT Metadata, const void *pData, UINT Size, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_QueueMethods*>(this)->SetMarker(Metadata, pData, Size); \
  } \
  void BeginEvent(UINT Metadata, const void *pData, UINT Size, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_QueueMethods*>(this)->BeginEvent(Metadata, pData, Size); \
  } \
  void EndEvent(::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    static_cast<syncproof_d3d12_QueueMethods*>(this)->EndEvent(); \
  } \
  HRESULT Signal(ID3D12Fence *pFence, UINT64 Value, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    return static_cast<syncproof_d3d12_QueueMethods*>(this)->Signal(pFence, Value); \
  } \
  HRESULT Wait(ID3D12Fence *pFence, UINT64 Value, ::syncproof::record::Where w = ::syncproof::record::Where::current()) { \
    SyncproofAt(w.file, w.line, w.column); \
    return static_cast<syncproof_d3d12_QueueMethods*>(this)->Wait(pFence, Value); \
  }

// ---- end generated call-site overloads ----
// clang-format on

// The call-site overloads hide the virtual methods on purpose (the virtual ones stay reachable
// through the base interfaces and are what the overloads call).
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Woverloaded-virtual"
#elif defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverloaded-virtual"
#endif

struct syncproof_d3d12_List6Methods : public ID3D12GraphicsCommandList5 {
  virtual void STDMETHODCALLTYPE DispatchMesh(UINT ThreadGroupCountX, UINT ThreadGroupCountY,
                                              UINT ThreadGroupCountZ) = 0;
  virtual void STDMETHODCALLTYPE SyncTopOfPipeX(D3D12XBOX_SYNC_FLAGS SyncFlags,
                                                D3D12XBOX_SYNC_CONTROL_FLAGS ControlFlags,
                                                D3D12_GPU_VIRTUAL_ADDRESS BaseAddress,
                                                SIZE_T SizeInBytes) = 0;
  virtual void STDMETHODCALLTYPE SyncBottomOfPipeX(D3D12XBOX_SYNC_FLAGS SyncFlags,
                                                   D3D12XBOX_SYNC_CONTROL_FLAGS ControlFlags,
                                                   D3D12_GPU_VIRTUAL_ADDRESS BaseAddress,
                                                   SIZE_T SizeInBytes) = 0;
  virtual void STDMETHODCALLTYPE Write32BitValueBottomOfPipe2X(
      D3D12_GPU_VIRTUAL_ADDRESS Destination, UINT32 Value, D3D12XBOX_SYNC_FLAGS SyncFlags,
      D3D12XBOX_SYNC_CONTROL_FLAGS ControlFlags, D3D12XBOX_WRITE_VALUE_BOP_FLAGS WriteFlags) = 0;
  virtual void STDMETHODCALLTYPE Write64BitValueBottomOfPipe2X(
      D3D12_GPU_VIRTUAL_ADDRESS Destination, UINT64 Value, D3D12XBOX_SYNC_FLAGS SyncFlags,
      D3D12XBOX_SYNC_CONTROL_FLAGS ControlFlags, D3D12XBOX_WRITE_VALUE_BOP_FLAGS WriteFlags) = 0;
  virtual void STDMETHODCALLTYPE Wait32BitValueX(D3D12_GPU_VIRTUAL_ADDRESS Destination,
                                                 D3D12_COMPARISON_FUNC Comparison,
                                                 UINT32 Value) = 0;
  virtual void STDMETHODCALLTYPE Wait64BitValueX(D3D12_GPU_VIRTUAL_ADDRESS Destination,
                                                 D3D12_COMPARISON_FUNC Comparison,
                                                 UINT64 Value) = 0;
  virtual void STDMETHODCALLTYPE DispatchX(UINT ThreadGroupCountX, UINT ThreadGroupCountY,
                                           UINT ThreadGroupCountZ,
                                           D3D12XBOX_DISPATCH_FLAGS DispatchFlags) = 0;
  // syncproof: where the next call was made (the call-site overloads call it).
  virtual void STDMETHODCALLTYPE SyncproofAt(const char* file, unsigned line, unsigned column) = 0;
};

struct ID3D12GraphicsCommandList6 : public syncproof_d3d12_List6Methods {
  SYNCPROOF_D3D12_LIST6_CALLS
  void SyncTopOfPipeX(D3D12XBOX_SYNC_FLAGS SyncFlags, D3D12XBOX_SYNC_CONTROL_FLAGS ControlFlags,
                      D3D12_GPU_VIRTUAL_ADDRESS BaseAddress, SIZE_T SizeInBytes,
                      ::syncproof::record::Where w = ::syncproof::record::Where::current()) {
    SyncproofAt(w.file, w.line, w.column);
    static_cast<syncproof_d3d12_List6Methods*>(this)->SyncTopOfPipeX(SyncFlags, ControlFlags,
                                                                     BaseAddress, SizeInBytes);
  }
  void SyncBottomOfPipeX(D3D12XBOX_SYNC_FLAGS SyncFlags, D3D12XBOX_SYNC_CONTROL_FLAGS ControlFlags,
                         D3D12_GPU_VIRTUAL_ADDRESS BaseAddress, SIZE_T SizeInBytes,
                         ::syncproof::record::Where w = ::syncproof::record::Where::current()) {
    SyncproofAt(w.file, w.line, w.column);
    static_cast<syncproof_d3d12_List6Methods*>(this)->SyncBottomOfPipeX(SyncFlags, ControlFlags,
                                                                        BaseAddress, SizeInBytes);
  }
  void Write32BitValueBottomOfPipe2X(
      D3D12_GPU_VIRTUAL_ADDRESS Destination, UINT32 Value, D3D12XBOX_SYNC_FLAGS SyncFlags,
      D3D12XBOX_SYNC_CONTROL_FLAGS ControlFlags, D3D12XBOX_WRITE_VALUE_BOP_FLAGS WriteFlags,
      ::syncproof::record::Where w = ::syncproof::record::Where::current()) {
    SyncproofAt(w.file, w.line, w.column);
    static_cast<syncproof_d3d12_List6Methods*>(this)->Write32BitValueBottomOfPipe2X(
        Destination, Value, SyncFlags, ControlFlags, WriteFlags);
  }
  void Write64BitValueBottomOfPipe2X(
      D3D12_GPU_VIRTUAL_ADDRESS Destination, UINT64 Value, D3D12XBOX_SYNC_FLAGS SyncFlags,
      D3D12XBOX_SYNC_CONTROL_FLAGS ControlFlags, D3D12XBOX_WRITE_VALUE_BOP_FLAGS WriteFlags,
      ::syncproof::record::Where w = ::syncproof::record::Where::current()) {
    SyncproofAt(w.file, w.line, w.column);
    static_cast<syncproof_d3d12_List6Methods*>(this)->Write64BitValueBottomOfPipe2X(
        Destination, Value, SyncFlags, ControlFlags, WriteFlags);
  }
  void Wait32BitValueX(D3D12_GPU_VIRTUAL_ADDRESS Destination, D3D12_COMPARISON_FUNC Comparison,
                       UINT32 Value,
                       ::syncproof::record::Where w = ::syncproof::record::Where::current()) {
    SyncproofAt(w.file, w.line, w.column);
    static_cast<syncproof_d3d12_List6Methods*>(this)->Wait32BitValueX(Destination, Comparison,
                                                                      Value);
  }
  void Wait64BitValueX(D3D12_GPU_VIRTUAL_ADDRESS Destination, D3D12_COMPARISON_FUNC Comparison,
                       UINT64 Value,
                       ::syncproof::record::Where w = ::syncproof::record::Where::current()) {
    SyncproofAt(w.file, w.line, w.column);
    static_cast<syncproof_d3d12_List6Methods*>(this)->Wait64BitValueX(Destination, Comparison,
                                                                      Value);
  }
  void DispatchX(UINT ThreadGroupCountX, UINT ThreadGroupCountY, UINT ThreadGroupCountZ,
                 D3D12XBOX_DISPATCH_FLAGS DispatchFlags,
                 ::syncproof::record::Where w = ::syncproof::record::Where::current()) {
    SyncproofAt(w.file, w.line, w.column);
    static_cast<syncproof_d3d12_List6Methods*>(this)->DispatchX(
        ThreadGroupCountX, ThreadGroupCountY, ThreadGroupCountZ, DispatchFlags);
  }
};

struct syncproof_d3d12_List7Methods : public ID3D12GraphicsCommandList6 {
  virtual void STDMETHODCALLTYPE Barrier(UINT32 NumBarrierGroups,
                                         const D3D12_BARRIER_GROUP* pBarrierGroups) = 0;
};
struct ID3D12GraphicsCommandList7 : public syncproof_d3d12_List7Methods {
  SYNCPROOF_D3D12_LIST7_CALLS
};

struct syncproof_d3d12_List8Methods : public ID3D12GraphicsCommandList7 {
  virtual void STDMETHODCALLTYPE OMSetFrontAndBackStencilRef(UINT FrontStencilRef,
                                                             UINT BackStencilRef) = 0;
};
struct ID3D12GraphicsCommandList8 : public syncproof_d3d12_List8Methods {
  SYNCPROOF_D3D12_LIST8_CALLS
};

struct syncproof_d3d12_QueueMethods : public syncproof_d3d12_ID3D12CommandQueue {
  // Signal2X/WaitX: Signal/Wait with the sync operations of SyncFlags (D3D12XBOX_SYNC_FLAGS).
  virtual HRESULT STDMETHODCALLTYPE Signal2X(ID3D12Fence* pFence, UINT64 Value,
                                             D3D12XBOX_SYNC_FLAGS SyncFlags) = 0;
  virtual HRESULT STDMETHODCALLTYPE WaitX(ID3D12Fence* pFence, UINT64 Value,
                                          D3D12XBOX_SYNC_FLAGS SyncFlags) = 0;
  virtual void STDMETHODCALLTYPE SyncproofAt(const char* file, unsigned line, unsigned column) = 0;
};
struct ID3D12CommandQueue : public syncproof_d3d12_QueueMethods {
  SYNCPROOF_D3D12_QUEUE_CALLS
  HRESULT Signal2X(ID3D12Fence* pFence, UINT64 Value,
                   D3D12XBOX_SYNC_FLAGS SyncFlags = D3D12XBOX_SYNC_FLAG_NONE,
                   ::syncproof::record::Where w = ::syncproof::record::Where::current()) {
    SyncproofAt(w.file, w.line, w.column);
    return static_cast<syncproof_d3d12_QueueMethods*>(this)->Signal2X(pFence, Value, SyncFlags);
  }
  HRESULT WaitX(ID3D12Fence* pFence, UINT64 Value,
                D3D12XBOX_SYNC_FLAGS SyncFlags = D3D12XBOX_SYNC_FLAG_NONE,
                ::syncproof::record::Where w = ::syncproof::record::Where::current()) {
    SyncproofAt(w.file, w.line, w.column);
    return static_cast<syncproof_d3d12_QueueMethods*>(this)->WaitX(pFence, Value, SyncFlags);
  }
};

#if defined(__clang__)
#pragma clang diagnostic pop
#elif defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

// The redeclared methods are the header's own.
namespace syncproof::record::detail {
template <class T>
struct method_type;
template <class C, class F>
struct method_type<F C::*> {
  using type = F;
};
#define SYNCPROOF_SAME_METHOD(ours, theirs, name)                                \
  static_assert(std::is_same<method_type<decltype(&ours::name)>::type,           \
                             method_type<decltype(&theirs::name)>::type>::value, \
                "d3d12_xs.h: " #ours "::" #name " differs from the public d3d12.h")
SYNCPROOF_SAME_METHOD(syncproof_d3d12_List6Methods, syncproof_d3d12_ID3D12GraphicsCommandList6,
                      DispatchMesh);
SYNCPROOF_SAME_METHOD(syncproof_d3d12_List7Methods, syncproof_d3d12_ID3D12GraphicsCommandList7,
                      Barrier);
SYNCPROOF_SAME_METHOD(syncproof_d3d12_List8Methods, syncproof_d3d12_ID3D12GraphicsCommandList8,
                      OMSetFrontAndBackStencilRef);
#undef SYNCPROOF_SAME_METHOD
}  // namespace syncproof::record::detail

// ---- syncproof's extension (not in the SDK) ----
namespace syncproof::record {
// The accesses of the next draw, dispatch, copy, clear or ExecuteIndirect recorded on `list`,
// instead of what it binds: for memory the bindings do not show (bindless descriptors, a
// shader's own addresses). Resources not made by Recorder::Device() are ignored.
Access Reads(ID3D12Resource* resource, Kind kind, Stage stage = Stage::Default);
Access Writes(ID3D12Resource* resource, Kind kind, Stage stage = Stage::Default);
void SetAccesses(ID3D12GraphicsCommandList* list, std::vector<Access> accesses);
}  // namespace syncproof::record

// __uuidof and IID_PPV_ARGS for every interface, these ones included.
#if !defined(_WIN32)
#include <dxguids/dxguids.h>
#endif

// ---- PIX markers (pix3.h's functions for command lists and queues) ----
#if !defined(SYNCPROOF_NO_PIX)
namespace syncproof::record::detail {
inline constexpr UINT kPixAnsi = 1;  // PIX_EVENT_ANSI_VERSION: pData is a char string
template <class... Args>
std::string pix_text(const char* format, Args... args) {
  if constexpr (sizeof...(Args) == 0) {
    return format ? format : "";
  } else {
    char buf[256];
    std::snprintf(buf, sizeof buf, format, args...);
    return buf;
  }
}
template <class... Args>
std::string pix_text(const wchar_t* format, Args...) {
  std::string out;
  for (; format && *format; ++format) out += *format < 0x80 ? static_cast<char>(*format) : '_';
  return out;
}
}  // namespace syncproof::record::detail

template <
    class Target, class Char, class... Args,
    class = std::enable_if_t<std::is_convertible<Target*, ID3D12GraphicsCommandList*>::value ||
                             std::is_convertible<Target*, ID3D12CommandQueue*>::value>>
void PIXBeginEvent(Target* target, UINT64 /*color*/, const Char* format, Args... args) {
  const std::string s = ::syncproof::record::detail::pix_text(format, args...);
  target->BeginEvent(::syncproof::record::detail::kPixAnsi, s.c_str(),
                     static_cast<UINT>(s.size() + 1));
}
template <
    class Target, class Char, class... Args,
    class = std::enable_if_t<std::is_convertible<Target*, ID3D12GraphicsCommandList*>::value ||
                             std::is_convertible<Target*, ID3D12CommandQueue*>::value>>
void PIXSetMarker(Target* target, UINT64 /*color*/, const Char* format, Args... args) {
  const std::string s = ::syncproof::record::detail::pix_text(format, args...);
  target->SetMarker(::syncproof::record::detail::kPixAnsi, s.c_str(),
                    static_cast<UINT>(s.size() + 1));
}
template <class Target, class = std::enable_if_t<
                            std::is_convertible<Target*, ID3D12GraphicsCommandList*>::value ||
                            std::is_convertible<Target*, ID3D12CommandQueue*>::value>>
void PIXEndEvent(Target* target) {
  target->EndEvent();
}
#endif
