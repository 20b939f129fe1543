#!/usr/bin/env python3
"""Generate opcode, capability and GLSL.std.450 instruction names from the
SPIR-V grammar (Debian's spirv-headers), for error messages and reports.

usage: spirv_names_gen.py <spirv.core.grammar.json> <extinst.glsl.std.450.grammar.json> <out-dir>
"""
import json
import os
import sys

BANNER = "/* generated from the SPIR-V grammar by compiler/spirv_names_gen.py; do not edit */\n"


def main():
    core = json.load(open(sys.argv[1]))
    glsl = json.load(open(sys.argv[2]))
    out = sys.argv[3]
    os.makedirs(out, exist_ok=True)
    opcodes = {}
    for insn in core["instructions"]:
        opcodes.setdefault(insn["opcode"], insn["opname"])
    capabilities = {}
    for kind in core["operand_kinds"]:
        if kind["kind"] == "Capability":
            for e in kind["enumerants"]:
                capabilities.setdefault(int(e["value"]), e["enumerant"])
    glsl_names = {i["opcode"]: i["opname"] for i in glsl["instructions"]}
    with open(os.path.join(out, "spirv_names.h"), "w") as h:
        h.write(BANNER + "#pragma once\n\n")
        h.write("const char *spv_opcode_name(unsigned opcode);\n")
        h.write("const char *spv_capability_name(unsigned capability);\n")
        h.write("const char *spv_glsl450_name(unsigned instruction);\n")
    with open(os.path.join(out, "spirv_names.c"), "w") as c:
        c.write(BANNER + "#include \"spirv_names.h\"\n\n")
        for fn, table in (("spv_opcode_name", opcodes), ("spv_capability_name", capabilities),
                          ("spv_glsl450_name", glsl_names)):
            c.write("const char *%s(unsigned value)\n{\n    switch (value) {\n" % fn)
            for value, name in sorted(table.items()):
                c.write("    case %d: return \"%s\";\n" % (value, name))
            c.write("    default: return \"(unknown)\";\n    }\n}\n\n")


if __name__ == "__main__":
    main()
