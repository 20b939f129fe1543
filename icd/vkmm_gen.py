#!/usr/bin/env python3
"""Generate vkmm's entry-point prototypes, lookup tables, extension tables and
enum-to-string helpers from the Vulkan registry (vk.xml).

Only the Python standard library is used.  Output files carry a
"generated from vk.xml; do not edit" banner and are never committed.

usage: vkmm_gen.py <vk.xml> <output-dir>
"""
import sys
import os
import xml.etree.ElementTree as ET

# Core versions whose commands vkmm dispatches.
CORE_VERSIONS = ["VK_VERSION_1_0", "VK_VERSION_1_1", "VK_VERSION_1_2", "VK_VERSION_1_3"]

# Extensions vkmm advertises.  Every name here must work; device extensions
# listed are ones whose functionality is core in 1.3 and therefore already
# implemented by the core entry points they alias.
INSTANCE_EXTENSIONS = [
    "VK_EXT_debug_utils",
    "VK_KHR_get_physical_device_properties2",
    "VK_KHR_external_memory_capabilities",
    "VK_KHR_external_fence_capabilities",
    "VK_KHR_external_semaphore_capabilities",
    "VK_KHR_device_group_creation",
]
DEVICE_EXTENSIONS = [
    "VK_KHR_bind_memory2",
    "VK_KHR_buffer_device_address",
    "VK_KHR_copy_commands2",
    "VK_KHR_dedicated_allocation",
    "VK_KHR_get_memory_requirements2",
    "VK_KHR_maintenance1",
    "VK_KHR_synchronization2",
    "VK_KHR_timeline_semaphore",
    "VK_EXT_host_query_reset",
    "VK_EXT_private_data",
    "VK_EXT_shader_atomic_float",
]

# Features of advertised extensions outside the core aggregates: what vkmm
# supports, as constants (a member not named here is not supported).
EXTENSION_FEATURES = {
    # Float atomics on buffers and shared memory (compiler/lower_memory.c:
    # atomicrmw fadd; load, store and exchange as integers of the width);
    # not on images, not sparse.
    "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT": [
        "shaderBufferFloat32Atomics", "shaderBufferFloat32AtomicAdd",
        "shaderBufferFloat64Atomics", "shaderBufferFloat64AtomicAdd",
        "shaderSharedFloat32Atomics", "shaderSharedFloat32AtomicAdd",
        "shaderSharedFloat64Atomics", "shaderSharedFloat64AtomicAdd",
    ],
}

# Commands of the versions above that vkmm deliberately leaves out of its
# prototype list, each with the reason (none now).  Everything else is declared; a
# declared command that has no definition yet is a weak symbol and
# vkGetDeviceProcAddr returns NULL for it (see entrypoints_missing test).
EXCLUDED_PREFIXES = [
    # None: a 1.3 driver gives every core entry point.  vkmm has no graphics
    # queue; its graphics commands record nothing and say why
    # (runtime/cmd_graphics.c).
]

# Enums for which a <name>_to_str() helper is generated.
STRING_ENUMS = ["VkResult", "VkObjectType", "VkQueryType"]
STRING_FLAGS = ["VkPipelineStageFlagBits2", "VkAccessFlagBits2"]

BANNER = "/* generated from vk.xml by icd/vkmm_gen.py; do not edit */\n"


def api_ok(elem):
    api = elem.get("api")
    return api is None or "vulkan" in api.split(",")


def text_of(elem):
    """Flatten an XML element (a <proto> or <param>) back into C text."""
    parts = [elem.text or ""]
    for child in elem:
        if child.tag == "comment":
            parts.append(child.tail or "")
            continue
        parts.append(child.text or "")
        parts.append(child.tail or "")
    return " ".join("".join(parts).split())


class Command:
    def __init__(self, name, ret, params, first_type):
        self.name = name
        self.ret = ret
        self.params = params
        self.first_type = first_type

    @property
    def level(self):
        if self.name in ("vkCreateInstance", "vkEnumerateInstanceVersion",
                         "vkEnumerateInstanceExtensionProperties",
                         "vkEnumerateInstanceLayerProperties"):
            return "VKMM_LEVEL_GLOBAL"
        if self.first_type == "VkInstance":
            return "VKMM_LEVEL_INSTANCE"
        if self.first_type == "VkPhysicalDevice":
            return "VKMM_LEVEL_PHYSICAL_DEVICE"
        return "VKMM_LEVEL_DEVICE"


def load_registry(path):
    root = ET.parse(path).getroot()
    commands = {}
    aliases = {}
    for cmd in root.find("commands"):
        if not api_ok(cmd):
            continue
        if cmd.get("alias"):
            aliases[cmd.get("name")] = cmd.get("alias")
            continue
        proto = cmd.find("proto")
        name = proto.find("name").text
        ret = proto.find("type").text
        params = [text_of(p) for p in cmd.findall("param") if api_ok(p)]
        first = cmd.find("param").find("type").text
        commands[name] = Command(name, ret, params, first)
    return root, commands, aliases


def required_commands(elem):
    names = []
    for req in elem.findall("require"):
        if not api_ok(req):
            continue
        for c in req.findall("command"):
            names.append(c.get("name"))
    return names


def excluded(name):
    return any(name.startswith(p) for p, _ in EXCLUDED_PREFIXES)


def collect(root, commands, aliases):
    """Return ordered list of (exposed name, implementing command, version,
    extension) tuples."""
    exposed = []
    seen = set()
    for feat in root.findall("feature"):
        if feat.get("name") not in CORE_VERSIONS:
            continue
        major, minor = feat.get("number").split(".")
        for name in required_commands(feat):
            target = aliases.get(name, name)
            if name in seen or excluded(target):
                continue
            seen.add(name)
            exposed.append((name, target, "VK_MAKE_API_VERSION(0, %s, %s, 0)" % (major, minor), None))
    ext_versions = {}
    for ext in root.find("extensions"):
        ename = ext.get("name")
        if ename not in INSTANCE_EXTENSIONS + DEVICE_EXTENSIONS:
            continue
        for req in ext.findall("require"):
            for enum in req.findall("enum"):
                if enum.get("name", "").endswith("_SPEC_VERSION") and enum.get("value"):
                    ext_versions[ename] = enum.get("value")
        for name in required_commands(ext):
            target = aliases.get(name, name)
            if name in seen or excluded(target):
                continue
            seen.add(name)
            exposed.append((name, target, "0", ename))
    for e in INSTANCE_EXTENSIONS + DEVICE_EXTENSIONS:
        if e not in ext_versions:
            sys.exit("vkmm_gen.py: extension %s not found in vk.xml" % e)
    return exposed, ext_versions


def impl_name(cmd_name):
    return "vkmm_" + cmd_name[2:]


def write_header(out, commands, exposed):
    targets = sorted({t for _, t, _, _ in exposed})
    with open(os.path.join(out, "vkmm_entrypoints.h"), "w") as f:
        f.write(BANNER)
        f.write("#pragma once\n#include <vulkan/vulkan.h>\n\n")
        f.write("enum vkmm_dispatch_level {\n    VKMM_LEVEL_GLOBAL,\n    VKMM_LEVEL_INSTANCE,\n"
                "    VKMM_LEVEL_PHYSICAL_DEVICE,\n    VKMM_LEVEL_DEVICE,\n};\n\n")
        f.write("struct vkmm_entrypoint {\n    const char *name;\n    PFN_vkVoidFunction function;\n"
                "    enum vkmm_dispatch_level level;\n    uint32_t core_version; /* 0: from an extension */\n"
                "    const char *extension;  /* NULL: core */\n};\n\n")
        f.write("/* Sorted by name, for bsearch. */\n")
        f.write("extern const struct vkmm_entrypoint vkmm_entrypoints[];\n")
        f.write("extern const unsigned vkmm_entrypoint_count;\n\n")
        f.write("const struct vkmm_entrypoint *vkmm_entrypoint_find(const char *name);\n\n")
        for t in targets:
            c = commands[t]
            f.write("VKAPI_ATTR %s VKAPI_CALL %s(%s);\n" % (c.ret, impl_name(t), ", ".join(c.params)))


def write_table(out, commands, exposed):
    targets = sorted({t for _, t, _, _ in exposed})
    with open(os.path.join(out, "vkmm_entrypoints.c"), "w") as f:
        f.write(BANNER)
        f.write("#include <stdlib.h>\n#include <string.h>\n#include \"vkmm_entrypoints.h\"\n\n")
        f.write("/* Weak so that a command vkmm does not implement resolves to NULL and is\n"
                " * not returned by the proc-addr queries. */\n")
        for t in targets:
            f.write("#pragma weak %s\n" % impl_name(t))
        f.write("\nconst struct vkmm_entrypoint vkmm_entrypoints[] = {\n")
        for name, target, version, ext in sorted(exposed):
            f.write("    { \"%s\", (PFN_vkVoidFunction)%s, %s, %s, %s },\n" % (
                name, impl_name(target), commands[target].level, version,
                '"%s"' % ext if ext else "NULL"))
        f.write("};\n\n")
        f.write("const unsigned vkmm_entrypoint_count = sizeof(vkmm_entrypoints) / sizeof(vkmm_entrypoints[0]);\n\n")
        f.write("static int compare_entry(const void *key, const void *elem)\n{\n"
                "    return strcmp((const char *)key, ((const struct vkmm_entrypoint *)elem)->name);\n}\n\n")
        f.write("const struct vkmm_entrypoint *vkmm_entrypoint_find(const char *name)\n{\n"
                "    return bsearch(name, vkmm_entrypoints, vkmm_entrypoint_count,\n"
                "                   sizeof(vkmm_entrypoints[0]), compare_entry);\n}\n")


def write_extensions(out, ext_versions):
    with open(os.path.join(out, "vkmm_extensions.c"), "w") as f:
        f.write(BANNER)
        f.write("#include \"vkmm_extensions.h\"\n\n")
        for kind, exts in (("instance", INSTANCE_EXTENSIONS), ("device", DEVICE_EXTENSIONS)):
            f.write("const VkExtensionProperties vkmm_%s_extensions[] = {\n" % kind)
            for e in exts:
                f.write("    { \"%s\", %s },\n" % (e, ext_versions[e]))
            f.write("};\n")
            f.write("const uint32_t vkmm_%s_extension_count = %d;\n\n" % (kind, len(exts)))
    with open(os.path.join(out, "vkmm_extensions.h"), "w") as f:
        f.write(BANNER)
        f.write("#pragma once\n#include <vulkan/vulkan.h>\n\n")
        for kind in ("instance", "device"):
            f.write("extern const VkExtensionProperties vkmm_%s_extensions[];\n" % kind)
            f.write("extern const uint32_t vkmm_%s_extension_count;\n" % kind)


def enum_values(root, enum_name):
    """Return [(name, value)] for an enum, including extension additions."""
    values = []
    block = None
    for enums in root.findall("enums"):
        if enums.get("name") == enum_name:
            block = enums
    if block is None:
        sys.exit("vkmm_gen.py: enum %s not found" % enum_name)
    is_bitmask = block.get("type") == "bitmask"
    bitwidth = int(block.get("bitwidth", "32"))
    for e in block.findall("enum"):
        if e.get("alias") or not api_ok(e):
            continue
        if e.get("bitpos") is not None:
            values.append((e.get("name"), 1 << int(e.get("bitpos"))))
        elif e.get("value") is not None:
            values.append((e.get("name"), int(e.get("value"), 0)))
    for parent in list(root.findall("feature")) + list(root.find("extensions")):
        extnum = parent.get("number") if parent.tag == "extension" else None
        if parent.tag == "extension" and parent.get("supported") == "disabled":
            continue
        for req in parent.findall("require"):
            for e in req.findall("enum"):
                if e.get("extends") != enum_name or e.get("alias") or not api_ok(e):
                    continue
                if e.get("bitpos") is not None:
                    v = 1 << int(e.get("bitpos"))
                elif e.get("offset") is not None:
                    num = int(e.get("extnumber", extnum))
                    v = 1000000000 + (num - 1) * 1000 + int(e.get("offset"))
                    if e.get("dir") == "-":
                        v = -v
                elif e.get("value") is not None:
                    v = int(e.get("value"), 0)
                else:
                    continue
                values.append((e.get("name"), v))
    seen = set()
    unique = []
    for n, v in values:
        if n not in seen:
            seen.add(n)
            unique.append((n, v))
    return unique, is_bitmask, bitwidth


def write_strings(out, root):
    h = open(os.path.join(out, "vkmm_enum_strings.h"), "w")
    c = open(os.path.join(out, "vkmm_enum_strings.c"), "w")
    h.write(BANNER + "#pragma once\n#include <vulkan/vulkan.h>\n\n")
    c.write(BANNER + "#include \"vkmm_enum_strings.h\"\n\n")
    for enum in STRING_ENUMS:
        values, _, _ = enum_values(root, enum)
        h.write("const char *vkmm_%s_to_str(%s value);\n" % (enum, enum))
        c.write("const char *vkmm_%s_to_str(%s value)\n{\n    switch ((long long)value) {\n" % (enum, enum))
        done = set()
        for n, v in values:
            if v in done:
                continue
            done.add(v)
            c.write("    case %d: return \"%s\";\n" % (v, n))
        c.write("    default: return \"(unknown %s)\";\n    }\n}\n\n" % enum)
    for enum in STRING_FLAGS:
        values, _, _ = enum_values(root, enum)
        # Returns the name of a single bit; callers join names for masks.
        h.write("const char *vkmm_%s_bit_to_str(uint64_t bit);\n" % enum)
        c.write("const char *vkmm_%s_bit_to_str(uint64_t bit)\n{\n    switch (bit) {\n" % enum)
        done = set()
        for n, v in values:
            if v in done or v == 0:
                continue
            done.add(v)
            c.write("    case 0x%xull: return \"%s\";\n" % (v, n))
        c.write("    default: return NULL;\n    }\n}\n\n")
    h.close()
    c.close()


# Members of an extension struct whose name in the VkPhysicalDeviceVulkan1xProperties
# aggregate differs, each because the aggregate prefixes it.
MEMBER_RENAMES = {
    ("VkPhysicalDeviceSubgroupProperties", "supportedStages"): "subgroupSupportedStages",
    ("VkPhysicalDeviceSubgroupProperties", "supportedOperations"): "subgroupSupportedOperations",
    ("VkPhysicalDeviceSubgroupProperties", "quadOperationsInAllStages"): "subgroupQuadOperationsInAllStages",
}
AGGREGATES = {
    "features": ["VkPhysicalDeviceVulkan11Features", "VkPhysicalDeviceVulkan12Features",
                 "VkPhysicalDeviceVulkan13Features"],
    "properties": ["VkPhysicalDeviceVulkan11Properties", "VkPhysicalDeviceVulkan12Properties",
                   "VkPhysicalDeviceVulkan13Properties"],
}


def struct_members(type_elem):
    members = []
    for m in type_elem.findall("member"):
        if not api_ok(m):
            continue
        name = m.find("name").text
        if name in ("sType", "pNext"):
            continue
        is_array = "[" in (m.find("name").tail or "")
        members.append((m.find("type").text, name, is_array))
    return members


def chain_structs(root, extends):
    """Structs extending `extends` that belong to a core version or an
    advertised extension, with their sType and members."""
    wanted = set()
    for feat in root.findall("feature"):
        if feat.get("name") in CORE_VERSIONS:
            for req in feat.findall("require"):
                wanted.update(t.get("name") for t in req.findall("type"))
    for ext in root.find("extensions"):
        if ext.get("name") in INSTANCE_EXTENSIONS + DEVICE_EXTENSIONS:
            for req in ext.findall("require"):
                wanted.update(t.get("name") for t in req.findall("type"))
    result = []
    for t in root.find("types"):
        if t.get("category") != "struct" or t.get("alias") or not api_ok(t):
            continue
        if extends not in (t.get("structextends") or "").split(","):
            continue
        if t.get("name") not in wanted:
            continue
        stype = t.find("member").get("values")
        result.append((t.get("name"), stype, struct_members(t)))
    return result


def write_chains(out, root):
    types = {t.get("name"): t for t in root.find("types") if t.get("category") == "struct"}
    agg_members = {}
    for kind, names in AGGREGATES.items():
        for i, n in enumerate(names):
            for _, m, _ in struct_members(types[n]):
                agg_members[(kind, m)] = "v1%d" % (i + 1)
    h = open(os.path.join(out, "vkmm_chains.h"), "w")
    c = open(os.path.join(out, "vkmm_chains.c"), "w")
    h.write(BANNER + "#pragma once\n#include <vulkan/vulkan.h>\n\n")
    h.write("struct vkmm_core_features {\n    VkPhysicalDeviceFeatures v10;\n"
            "    VkPhysicalDeviceVulkan11Features v11;\n    VkPhysicalDeviceVulkan12Features v12;\n"
            "    VkPhysicalDeviceVulkan13Features v13;\n};\n\n")
    h.write("struct vkmm_core_properties {\n    VkPhysicalDeviceProperties v10;\n"
            "    VkPhysicalDeviceVulkan11Properties v11;\n    VkPhysicalDeviceVulkan12Properties v12;\n"
            "    VkPhysicalDeviceVulkan13Properties v13;\n};\n\n")
    h.write("/* Fill every known structure of a VkPhysicalDeviceFeatures2 pNext chain\n"
            " * from the core aggregates; unknown structures are left untouched. */\n")
    h.write("void vkmm_features_fill_chain(void *pNext, const struct vkmm_core_features *f);\n")
    h.write("void vkmm_properties_fill_chain(void *pNext, const struct vkmm_core_properties *p);\n")
    h.write("/* Name of the first feature requested in a VkDeviceCreateInfo pNext chain\n"
            " * (or in `base`) that `f` does not support, or NULL when all are. */\n")
    h.write("const char *vkmm_features_find_unsupported(const VkPhysicalDeviceFeatures *base,\n"
            "                                           const void *pNext,\n"
            "                                           const struct vkmm_core_features *f);\n")
    c.write(BANNER + "#include <string.h>\n#include \"vkmm_chains.h\"\n\n")

    def v10_members():
        return [m for _, m, _ in struct_members(types["VkPhysicalDeviceFeatures"])]

    for kind, extends, arg in (("features", "VkPhysicalDeviceFeatures2", "f"),
                               ("properties", "VkPhysicalDeviceProperties2", "p")):
        c.write("void vkmm_%s_fill_chain(void *pNext, const struct vkmm_core_%s *%s)\n{\n" % (kind, kind, arg))
        c.write("    for (VkBaseOutStructure *s = pNext; s; s = s->pNext) {\n        switch (s->sType) {\n")
        for name, stype, members in chain_structs(root, extends):
            c.write("        case %s: {\n            %s *d = (%s *)s;\n" % (stype, name, name))
            if name in AGGREGATES[kind]:
                ver = "v1%d" % (AGGREGATES[kind].index(name) + 1)
                c.write("            void *next = d->pNext;\n            *d = %s->%s;\n"
                        "            d->sType = %s;\n            d->pNext = next;\n" % (arg, ver, stype))
            for mtype, m, is_array in members:
                if name in AGGREGATES[kind]:
                    break
                src = MEMBER_RENAMES.get((name, m), m)
                ver = agg_members.get((kind, src))
                if ver is None and kind == "features":
                    supported = m in EXTENSION_FEATURES.get(name, [])
                    c.write("            d->%s = %s;\n" % (m, "VK_TRUE" if supported else "VK_FALSE"))
                elif ver is None:
                    c.write("            /* %s: not in the core aggregates */\n" % m)
                elif is_array:
                    c.write("            memcpy(d->%s, %s->%s.%s, sizeof(d->%s));\n" % (m, arg, ver, src, m))
                else:
                    c.write("            d->%s = %s->%s.%s;\n" % (m, arg, ver, src))
            c.write("            break;\n        }\n")
        c.write("        default:\n            break;\n        }\n    }\n}\n\n")

    c.write("const char *vkmm_features_find_unsupported(const VkPhysicalDeviceFeatures *base,\n"
            "                                           const void *pNext,\n"
            "                                           const struct vkmm_core_features *f)\n{\n")
    c.write("    if (base) {\n")
    for m in v10_members():
        c.write("        if (base->%s && !f->v10.%s) return \"%s\";\n" % (m, m, m))
    c.write("    }\n")
    c.write("    for (const VkBaseInStructure *s = pNext; s; s = s->pNext) {\n        switch (s->sType) {\n")
    c.write("        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2: {\n"
            "            const char *bad = vkmm_features_find_unsupported(\n"
            "                &((const VkPhysicalDeviceFeatures2 *)s)->features, NULL, f);\n"
            "            if (bad) return bad;\n            break;\n        }\n")
    for name, stype, members in chain_structs(root, "VkDeviceCreateInfo"):
        if name in ("VkPhysicalDeviceFeatures2",) or not name.endswith(("Features", "FeaturesEXT", "FeaturesKHR")):
            continue
        c.write("        case %s: {\n            const %s *r = (const %s *)s;\n" % (stype, name, name))
        for mtype, m, _ in members:
            if mtype != "VkBool32":
                continue
            if name in AGGREGATES["features"]:
                ver = "v1%d" % (AGGREGATES["features"].index(name) + 1)
            else:
                ver = agg_members.get(("features", m))
            if ver is None and m in EXTENSION_FEATURES.get(name, []):
                continue
            if ver is None:
                c.write("            if (r->%s) return \"%s\";\n" % (m, m))
            else:
                c.write("            if (r->%s && !f->%s.%s) return \"%s\";\n" % (m, ver, m, m))
        c.write("            break;\n        }\n")
    c.write("        default:\n            break;\n        }\n    }\n    return NULL;\n}\n")
    h.close()
    c.close()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    root, commands, aliases = load_registry(sys.argv[1])
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    exposed, ext_versions = collect(root, commands, aliases)
    write_header(out, commands, exposed)
    write_table(out, commands, exposed)
    write_extensions(out, ext_versions)
    write_strings(out, root)
    write_chains(out, root)


if __name__ == "__main__":
    main()
