#!/usr/bin/env python3
"""Generates the parts of syncproof's D3D12 stand-in that follow the public d3d12.h method by
method (Debian's directx-headers-dev, /usr/include/directx/d3d12.h):

  record/include/syncproof/d3d12_xs.h, between the `generated` markers: the header's own
      ID3D12GraphicsCommandList..List8, ID3D12CommandQueue, ID3D12Fence, ID3D12Fence1 and
      ID3D12Device..DeviceN renamed
      (syncproof_d3d12_*), and these interfaces declared again, newer deriving from older:
      per interface its methods (plus the Xbox ones), a call-site overload of each (it tells the
      recording object where it was called from, then calls the virtual method), and static
      checks that the methods are the header's;
  record/d3d12_list_methods.inc: the recording list's declaration of every method of
      ID3D12GraphicsCommandList..List8, with a body for those that record nothing.

Run it again when the header changes: python3 scripts/gen_d3d12_xs.py [HEADER]."""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADER = Path(sys.argv[1] if len(sys.argv) > 1 else "/usr/include/directx/d3d12.h")
LISTS = ["ID3D12GraphicsCommandList"] + [f"ID3D12GraphicsCommandList{i}" for i in range(1, 9)]
SAL = re.compile(r"\b_(In|Out|Inout|COM_Outptr|Outptr|Always|Field|Ret|Deref|Pre|Post|Reserved)"
                 r"[A-Za-z_]*_?(\([^()]*(\([^()]*\))*[^()]*\))?\s*")

# Methods the recording list implements by hand (record/d3d12_list.cpp).
HANDWRITTEN = {
    "Close", "Reset", "ClearState", "DrawInstanced", "DrawIndexedInstanced", "Dispatch",
    "CopyBufferRegion", "CopyTextureRegion", "CopyResource", "CopyTiles", "ResolveSubresource",
    "ResourceBarrier", "ExecuteBundle", "SetDescriptorHeaps", "SetComputeRootSignature",
    "SetGraphicsRootSignature", "SetComputeRootDescriptorTable", "SetGraphicsRootDescriptorTable",
    "SetComputeRootConstantBufferView", "SetGraphicsRootConstantBufferView",
    "SetComputeRootShaderResourceView", "SetGraphicsRootShaderResourceView",
    "SetComputeRootUnorderedAccessView", "SetGraphicsRootUnorderedAccessView", "IASetIndexBuffer",
    "IASetVertexBuffers", "SOSetTargets", "OMSetRenderTargets", "ClearDepthStencilView",
    "ClearRenderTargetView", "ClearUnorderedAccessViewUint", "ClearUnorderedAccessViewFloat",
    "DiscardResource", "ResolveQueryData", "SetPredication", "SetMarker", "BeginEvent", "EndEvent",
    "ExecuteIndirect", "AtomicCopyBufferUINT", "AtomicCopyBufferUINT64",
    "ResolveSubresourceRegion", "WriteBufferImmediate", "BeginRenderPass", "EndRenderPass",
    "InitializeMetaCommand", "ExecuteMetaCommand", "BuildRaytracingAccelerationStructure",
    "EmitRaytracingAccelerationStructurePostbuildInfo", "CopyRaytracingAccelerationStructure",
    "DispatchRays", "RSSetShadingRateImage", "DispatchMesh", "Barrier", "SetProtectedResourceSession",
}
DEVICE_HANDWRITTEN = {
    "CreateCommandQueue", "CreateCommandAllocator", "CreateGraphicsPipelineState",
    "CreateComputePipelineState", "CreateCommandList", "CreateDescriptorHeap",
    "GetDescriptorHandleIncrementSize", "CreateRootSignature", "CreateConstantBufferView",
    "CreateShaderResourceView", "CreateUnorderedAccessView", "CreateRenderTargetView",
    "CreateDepthStencilView", "CopyDescriptors", "CopyDescriptorsSimple",
    "GetResourceAllocationInfo", "CreateCommittedResource", "CreateHeap", "CreatePlacedResource",
    "CreateReservedResource", "CreateFence", "CreateQueryHeap", "CreateCommandSignature",
    "GetNodeCount", "GetCustomHeapProperties", "GetAdapterLuid", "CheckFeatureSupport",
}
# Queue methods without a call-site overload (they record nothing and return data).
QUEUE_PLAIN = {"GetTimestampFrequency", "GetClockCalibration", "GetDesc"}


def interface_body(text, name):
    m = re.search(r"MIDL_INTERFACE\(\"[^\"]*\"\)\s*" + name + r"\s*:\s*public\s+(\w+)\s*\{\s*public:(.*?)\n    \};",
                  text, re.S)
    if not m:
        sys.exit(f"{HEADER}: no C++ declaration of {name}")
    return m.group(2)


def methods(body):
    # Keep the first branch of `#if ... #else ... #endif` (the one for compilers other than MSVC
    # on Windows is the first: `defined(_MSC_VER) || !defined(_WIN32)`).
    out_lines, skip = [], False
    for line in body.split("\n"):
        s = line.strip()
        if s.startswith("#if"):
            continue
        if s.startswith("#else"):
            skip = True
            continue
        if s.startswith("#endif"):
            skip = False
            continue
        if not skip:
            out_lines.append(line)
    body = "\n".join(out_lines)
    out = []
    for m in re.finditer(r"virtual\s+(.*?)\s*STDMETHODCALLTYPE\s+(\w+)\s*\((.*?)\)\s*=\s*0;", body, re.S):
        ret, name, params = m.group(1).strip(), m.group(2), m.group(3)
        params = SAL.sub("", params)
        params = " ".join(params.split())
        plist = [] if params in ("", "void") else [p.strip() for p in params.split(",")]
        args = []
        for p in plist:
            pm = re.match(r"(.*?)(\w+)\s*(\[[^\]]*\])?$", p)
            args.append(pm.group(2))
        out.append((ret, name, plist, args))
    return out


WHERE = "::syncproof::record::Where w = ::syncproof::record::Where::current()"

# The chains of interfaces syncproof declares again (with the Xbox methods and a call-site overload
# of every method): each starts from a d3d12.h interface it keeps. The header's own are renamed
# syncproof_d3d12_NAME.
CHAINS = [("ID3D12CommandList", LISTS), ("ID3D12Pageable", ["ID3D12CommandQueue"]),
          ("ID3D12Pageable", ["ID3D12Fence", "ID3D12Fence1"])]
# The Xbox methods (the seeds' reference pages), after the header's own; defaults on the
# call-site overload only.
XBOX = {
    "ID3D12GraphicsCommandList6": [
        ("void", "SyncTopOfPipeX", ["D3D12XBOX_SYNC_FLAGS SyncFlags",
                                    "D3D12XBOX_SYNC_CONTROL_FLAGS ControlFlags",
                                    "D3D12_GPU_VIRTUAL_ADDRESS BaseAddress", "SIZE_T SizeInBytes"]),
        ("void", "SyncBottomOfPipeX", ["D3D12XBOX_SYNC_FLAGS SyncFlags",
                                       "D3D12XBOX_SYNC_CONTROL_FLAGS ControlFlags",
                                       "D3D12_GPU_VIRTUAL_ADDRESS BaseAddress",
                                       "SIZE_T SizeInBytes"]),
        ("void", "Write32BitValueBottomOfPipe2X", [
            "D3D12_GPU_VIRTUAL_ADDRESS Destination", "UINT32 Value", "D3D12XBOX_SYNC_FLAGS SyncFlags",
            "D3D12XBOX_SYNC_CONTROL_FLAGS ControlFlags", "D3D12XBOX_WRITE_VALUE_BOP_FLAGS WriteFlags"]),
        ("void", "Write64BitValueBottomOfPipe2X", [
            "D3D12_GPU_VIRTUAL_ADDRESS Destination", "UINT64 Value", "D3D12XBOX_SYNC_FLAGS SyncFlags",
            "D3D12XBOX_SYNC_CONTROL_FLAGS ControlFlags", "D3D12XBOX_WRITE_VALUE_BOP_FLAGS WriteFlags"]),
        ("void", "Wait32BitValueX", ["D3D12_GPU_VIRTUAL_ADDRESS Destination",
                                     "D3D12_COMPARISON_FUNC Comparison", "UINT32 Value"]),
        ("void", "Wait64BitValueX", ["D3D12_GPU_VIRTUAL_ADDRESS Destination",
                                     "D3D12_COMPARISON_FUNC Comparison", "UINT64 Value"]),
        ("void", "DispatchX", ["UINT ThreadGroupCountX", "UINT ThreadGroupCountY",
                               "UINT ThreadGroupCountZ", "D3D12XBOX_DISPATCH_FLAGS DispatchFlags"]),
    ],
    # Signal/Wait with the sync operations of SyncFlags.
    "ID3D12CommandQueue": [
        ("HRESULT", "Signal2X", ["ID3D12Fence *pFence", "UINT64 Value",
                                 "D3D12XBOX_SYNC_FLAGS SyncFlags = D3D12XBOX_SYNC_FLAG_NONE"]),
        ("HRESULT", "WaitX", ["ID3D12Fence *pFence", "UINT64 Value",
                              "D3D12XBOX_SYNC_FLAGS SyncFlags = D3D12XBOX_SYNC_FLAG_NONE"]),
    ],
}
AT = "virtual void STDMETHODCALLTYPE SyncproofAt(const char* file, unsigned line, unsigned column) = 0;"


def arg_name(p):
    return re.match(r"(.*?)(\w+)\s*(\[[^\]]*\])?$", p.split("=")[0].strip()).group(2)


def forwarder(ret, name, plist, base):
    params = ", ".join(plist + [WHERE])
    call = f"static_cast<{base}*>(this)->{name}({', '.join(arg_name(p) for p in plist)})"
    ret_kw = "" if ret == "void" else "return "
    return (f"  {ret} {name}({params}) {{\n"
            f"    SyncproofAt(w.file, w.line, w.column);\n"
            f"    {ret_kw}{call};\n  }}\n")


def pure(ret, name, plist):
    params = ", ".join(p.split("=")[0].strip() for p in plist)
    return f"  virtual {ret} STDMETHODCALLTYPE {name}({params}) = 0;\n"


def renamed(chains):
    return [n for _, names in chains for n in names]


def interfaces(text, chains):
    """The chains declared again: per interface a struct of its pure virtual methods (the
    header's, then the Xbox ones) and the interface itself with a call-site overload of each."""
    renames = renamed(chains)
    out, checks = [], []
    for root, names in chains:
        parent = root
        for i, n in enumerate(names):
            own = [(r, m, p) for r, m, p, _ in methods(interface_body(text, n))]
            extra = XBOX.get(n, [])
            base = f"syncproof_d3d12_{n}_Methods"
            out.append(f"struct {base} : public {parent} {{\n")
            out += [pure(r, m, p) for r, m, p in own + extra]
            if i == 0:
                out.append(f"  // syncproof: where the next call was made (the overloads call it).\n  {AT}\n")
            out.append("};\n")
            out.append(f"struct {n} : public {base} {{\n")
            out += [forwarder(r, m, p, base) for r, m, p in own + extra
                    if not (n == "ID3D12CommandQueue" and m in QUEUE_PLAIN)]
            out.append("};\n\n")
            # The header's own methods, where their types do not name an interface declared
            # again, are checked to be the header's.
            for r, m, p in own:
                sig = r + " " + " ".join(p)
                if not any(re.search(rf"\b{x}\b", sig) for x in renames):
                    checks.append(f"SYNCPROOF_SAME_METHOD({base}, syncproof_d3d12_{n}, {m});\n")
            parent = n
    return "".join(out), "".join(checks)


def splice(path, tag, body):
    src = path.read_text()
    begin, end = f"// ---- begin generated {tag} ----\n", f"// ---- end generated {tag} ----\n"
    i, j = src.index(begin) + len(begin), src.index(end)
    path.write_text(src[:i] + body + src[j:])


def main():
    text = HEADER.read_text()
    per_list = {n: methods(interface_body(text, n)) for n in LISTS}
    devices = ["ID3D12Device"]
    while re.search(rf"\b{devices[0]}{len(devices)} : public", text):
        devices.append(f"ID3D12Device{len(devices)}")
    chains = CHAINS + [("ID3D12Object", devices)]
    path = ROOT / "record/include/syncproof/d3d12_xs.h"
    note = "// Generated by scripts/gen_d3d12_xs.py from the public d3d12.h: do not edit by hand.\n"
    splice(path, "renames", note + "".join(f"#define {n} syncproof_d3d12_{n}\n" for n in renamed(chains)))
    splice(path, "unrenames", "".join(f"#undef {n}\n" for n in renamed(chains)))
    decls, checks = interfaces(text, chains)
    forward = "".join(f"struct {n};\n" for n in renamed(chains))
    splice(path, "interfaces", note + forward + decls)
    splice(path, "checks", note + checks)

    inc = ["// Generated by scripts/gen_d3d12_xs.py from the public d3d12.h: every method of\n"
           "// ID3D12GraphicsCommandList..List8, declared in the recording list (record/d3d12_objects.h).\n"
           "// Those that record nothing have their body here; the rest are in record/d3d12_list.cpp.\n"]
    for n in LISTS:
        inc.append(f"// {n}\n")
        for ret, name, plist, args in per_list[n]:
            params = ", ".join(plist)
            if name in HANDWRITTEN:
                inc.append(f"{ret} STDMETHODCALLTYPE {name}({params}) override;\n")
            else:
                unused = "".join(f"(void){a}; " for a in args)
                body = (f"{{ skip(); {unused}return ignored<{ret}>(); }}" if ret != "void"
                        else f"{{ skip(); {unused}}}")
                inc.append(f"{ret} STDMETHODCALLTYPE {name}({params}) override {body}\n")
    (ROOT / "record/d3d12_list_methods.inc").write_text("".join(inc))

    dev = ["// Generated by scripts/gen_d3d12_xs.py from the public d3d12.h: every method of\n"
           "// ID3D12Device, declared in the recording device (record/d3d12_objects.h). Those that\n"
           "// create nothing the recording needs have their body here; the rest are in\n"
           "// record/d3d12_device.cpp.\n"]
    for ret, name, plist, args in methods(interface_body(text, "ID3D12Device")):
        params = ", ".join(plist)
        if name in DEVICE_HANDWRITTEN:
            dev.append(f"{ret} STDMETHODCALLTYPE {name}({params}) override;\n")
        else:
            unused = "".join(f"(void){a}; " for a in args)
            body = f"{{ {unused}return ignored<{ret}>(); }}" if ret != "void" else f"{{ {unused}}}"
            dev.append(f"{ret} STDMETHODCALLTYPE {name}({params}) override {body}\n")
    (ROOT / "record/d3d12_device_methods.inc").write_text("".join(dev))


main()
