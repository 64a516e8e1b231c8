#!/usr/bin/env python3
"""Generates the parts of syncproof's D3D12 stand-in that follow the public d3d12.h method by
method (Debian's directx-headers-dev, /usr/include/directx/d3d12.h):

  record/include/syncproof/d3d12_xs.h, between the `generated` markers: the call-site overloads
      of every ID3D12GraphicsCommandList..List8 and ID3D12CommandQueue method (each forwards to
      the real virtual method after telling the recording object where it was called from);
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


def forwarder(ret, name, plist, args, base, extra_default=""):
    where = "::syncproof::record::Where w = ::syncproof::record::Where::current()"
    params = ", ".join(plist + [where])
    call = f"static_cast<{base}*>(this)->{name}({', '.join(args)})"
    ret_kw = "" if ret == "void" else "return "
    return (f"  {ret} {name}({params}) {{\n"
            f"    SyncproofAt(w.file, w.line, w.column);\n"
            f"    {ret_kw}{call};\n  }}\n")


def main():
    text = HEADER.read_text()
    per_list = {n: methods(interface_body(text, n)) for n in LISTS}
    queue = methods(interface_body(text, "ID3D12CommandQueue"))

    gen = ["// ---- generated by scripts/gen_d3d12_xs.py from " + str(HEADER) + ": do not edit ----\n"]
    gen.append("#define SYNCPROOF_D3D12_LIST6_CALLS \\\n")
    blocks = {}
    lines6 = []
    for n in LISTS[:7]:
        for ret, name, plist, args in per_list[n]:
            lines6.append(forwarder(ret, name, plist, args, "syncproof_d3d12_List6Methods"))
    blocks["LIST6"] = lines6
    blocks["LIST7"] = [forwarder(r, nm, p, a, "syncproof_d3d12_List7Methods") for r, nm, p, a in per_list[LISTS[7]]]
    blocks["LIST8"] = [forwarder(r, nm, p, a, "syncproof_d3d12_List8Methods") for r, nm, p, a in per_list[LISTS[8]]]
    blocks["QUEUE"] = [forwarder(r, nm, p, a, "syncproof_d3d12_QueueMethods") for r, nm, p, a in queue
                       if nm not in QUEUE_PLAIN]
    gen = ["// Generated by scripts/gen_d3d12_xs.py from the public d3d12.h: do not edit by hand.\n"]
    for key, fns in blocks.items():
        gen.append(f"#define SYNCPROOF_D3D12_{key}_CALLS \\\n")
        body = "".join(fns).rstrip("\n").split("\n")
        gen.append(" \\\n".join(body) + "\n\n")
    path = ROOT / "record/include/syncproof/d3d12_xs.h"
    src = path.read_text()
    begin, end = "// ---- begin generated call-site overloads ----\n", "// ---- end generated call-site overloads ----\n"
    i, j = src.index(begin) + len(begin), src.index(end)
    path.write_text(src[:i] + "".join(gen) + src[j:])

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
