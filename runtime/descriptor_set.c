#include "descriptor_set.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "buffer.h"
#include "buffer_view.h"
#include "image_view.h"
#include "sampler.h"
#include "device.h"
#include "log.h"

const struct vkmm_descriptor *vkmm_descriptor_set_binding(const struct vkmm_descriptor_set *set, uint32_t binding)
{
    const struct vkmm_set_layout_binding *b = vkmm_descriptor_set_layout_find(set->layout, binding);
    if (!b || b->count == 0)
        return NULL;
    return &set->descriptors[b->first];
}

static bool type_is_buffer(VkDescriptorType type)
{
    return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
           type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

static bool type_is_uniform(VkDescriptorType type)
{
    return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
}

/* Where `count` descriptors from binding[element] onwards lie in a set of
 * `layout`, following the spec's consecutive binding updates: "If the
 * dstBinding has fewer than descriptorCount array elements remaining
 * starting from dstArrayElement, then the remainder will be used to update
 * the subsequent binding ... If a binding has a descriptorCount of zero, it
 * is skipped."  Bindings are sorted and laid out back to back, so the
 * descriptors are the `count` that follow the first one; the walk checks
 * that they exist and that every binding touched has type `type`.  Returns
 * NULL and sets *first, or what is wrong. */
static const char *locate(const struct vkmm_descriptor_set_layout *layout, uint32_t binding, uint32_t element,
                          uint32_t count, VkDescriptorType type, uint32_t *first)
{
    const struct vkmm_set_layout_binding *start = vkmm_descriptor_set_layout_find(layout, binding);
    const struct vkmm_set_layout_binding *end = layout->bindings + layout->binding_count;
    const struct vkmm_set_layout_binding *b = start;
    if (!b)
        return "the binding is not in the set's layout";
    if (element > b->count)
        return "the array element is past the binding's descriptorCount";
    uint32_t left = count, available = b->count - element;
    for (;;) {
        if (available > 0 && b->type != type)
            return "a binding the update reaches has another descriptor type";
        if (left <= available)
            break;
        left -= available;
        if (++b == end)
            return "the update runs past the last binding";
        available = b->count;
    }
    *first = start->first + element;
    return NULL;
}

static const VkDescriptorBufferInfo *buffer_info_at(const void *infos, size_t stride, uint32_t i)
{
    return (const VkDescriptorBufferInfo *)((const uint8_t *)infos + (size_t)i * stride);
}

/* The valid usage of VkDescriptorBufferInfo and of VkWriteDescriptorSet
 * about it that vkmm relies on or can check cheaply; NULL when valid. */
static const char *check_buffer_info(const struct vkmm_device *device, VkDescriptorType type,
                                     const VkDescriptorBufferInfo *info)
{
    /* A null descriptor: shaders read zeros and writes are discarded. */
    if (info->buffer == VK_NULL_HANDLE)
        return NULL;
    VKMM_FROM_HANDLE(vkmm_buffer, buffer, info->buffer);
    const VkPhysicalDeviceLimits *limits = &device->physical_device->properties.v10.limits;
    bool uniform = type_is_uniform(type);
    if (!buffer->memory)
        return "the buffer is not bound to memory";
    if (info->offset >= buffer->size)
        return "offset is not less than the buffer's size";
    if (info->range != VK_WHOLE_SIZE && (info->range == 0 || info->range > buffer->size - info->offset))
        return "range is 0 or runs past the end of the buffer";
    VkDeviceSize range = info->range == VK_WHOLE_SIZE ? buffer->size - info->offset : info->range;
    if (uniform && !(buffer->usage & VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT))
        return "the buffer lacks VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT";
    if (!uniform && !(buffer->usage & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT))
        return "the buffer lacks VK_BUFFER_USAGE_STORAGE_BUFFER_BIT";
    if (info->offset % (uniform ? limits->minUniformBufferOffsetAlignment : limits->minStorageBufferOffsetAlignment))
        return "offset is not a multiple of min{Uniform,Storage}BufferOffsetAlignment";
    if (range > (uniform ? limits->maxUniformBufferRange : limits->maxStorageBufferRange))
        return "the (effective) range exceeds max{Uniform,Storage}BufferRange";
    return NULL;
}

static void write_buffer_descriptor(struct vkmm_descriptor *descriptor, const VkDescriptorBufferInfo *info)
{
    if (info->buffer == VK_NULL_HANDLE) {
        *descriptor = (struct vkmm_descriptor){ 0 };
        return;
    }
    VKMM_FROM_HANDLE(vkmm_buffer, buffer, info->buffer);
    /* The spec: for VK_WHOLE_SIZE "the effective range is calculated at
     * vkUpdateDescriptorSets by taking the size of buffer minus the
     * offset". */
    VkDeviceSize range = info->range == VK_WHOLE_SIZE ? buffer->size - info->offset : info->range;
    *descriptor = (struct vkmm_descriptor){
        .base = vkmm_buffer_device_bytes(buffer, info->offset, range),
        .range = range,
        .memory = buffer->memory,
        .memory_offset = buffer->memory_offset + info->offset,
        .reach = buffer->size - info->offset,
    };
}

bool vkmm_descriptor_apply_dynamic_offset(struct vkmm_descriptor *descriptor, uint64_t offset)
{
    if (!descriptor->base)
        return true; /* a null descriptor stays one */
    if (offset > descriptor->reach || descriptor->range > descriptor->reach - offset)
        return false;
    /* The spec: the effective offset is the descriptor's offset plus the
     * dynamic offset; the range stays. */
    descriptor->base += offset;
    descriptor->memory_offset += offset;
    descriptor->reach -= offset;
    return true;
}

static void report_invalid(const struct vkmm_descriptor_set *set, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static void report_invalid(const struct vkmm_descriptor_set *set, const char *format, ...)
{
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof(message), format, args);
    va_end(args);
    vkmm_log(&set->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
             "VKMM-INVALID-DESCRIPTOR-UPDATE", "%s", message);
}

static bool type_is_texel_buffer(VkDescriptorType type)
{
    return type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER || type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
}

/* The layout binding that holds descriptor `index` of a set. */
static const struct vkmm_set_layout_binding *binding_of(const struct vkmm_descriptor_set_layout *layout,
                                                        uint32_t index)
{
    for (uint32_t b = 0; b < layout->binding_count; b++) {
        const struct vkmm_set_layout_binding *binding = &layout->bindings[b];
        if (index >= binding->first && index - binding->first < binding->count)
            return binding;
    }
    return NULL;
}

/* One image, sampler or texel-buffer descriptor: a copy of the view's
 * descriptor (a null handle gives a null descriptor: reads give zeros,
 * writes are dropped), with the sampler's word; immutable samplers stay. */
static void write_image_descriptor(struct vkmm_descriptor_set *set, uint32_t index, VkDescriptorType type,
                                   const void *info)
{
    struct vkmm_descriptor *d = &set->descriptors[index];
    const struct vkmm_set_layout_binding *binding = binding_of(set->layout, index);
    bool immutable = binding && binding->immutable_samplers;
    if (type_is_texel_buffer(type)) {
        VKMM_FROM_HANDLE(vkmm_buffer_view, view, *(const VkBufferView *)info);
        *d = view ? view->descriptor : (struct vkmm_descriptor){ 0 };
        return;
    }
    const VkDescriptorImageInfo *image_info = info;
    if (type == VK_DESCRIPTOR_TYPE_SAMPLER) {
        *d = (struct vkmm_descriptor){ 0 };
    } else {
        VKMM_FROM_HANDLE(vkmm_image_view, view, image_info->imageView);
        *d = view ? view->descriptor : (struct vkmm_descriptor){ 0 };
    }
    if (type == VK_DESCRIPTOR_TYPE_SAMPLER || type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER)
    {
        struct vkmm_sampler_state sampler = immutable ? binding->immutable_samplers[index - binding->first]
                                                      : vkmm_sampler_state(vkmm_sampler_from_handle(image_info->sampler));
        vkmm_sampler_state_store(&sampler, &d->image);
    }
}

static void write_image_descriptors(struct vkmm_descriptor_set *set, uint32_t first, uint32_t count,
                                    VkDescriptorType type, const void *infos, size_t stride)
{
    if (!infos && count) {
        report_invalid(set, "write of %u descriptors of type %d without infos; the write is dropped", count, type);
        return;
    }
    for (uint32_t i = 0; i < count; i++)
        write_image_descriptor(set, first + i, type, (const uint8_t *)infos + (size_t)i * stride);
}

/* --- Inline uniform blocks -------------------------------------------------- */

/* Where bytes [offset, offset + size) of an inline uniform block binding
 * lie in `set`, or NULL with what is wrong.  The spec: for an inline
 * uniform block, dstArrayElement (srcArrayElement) is "the starting byte
 * offset within the binding" and descriptorCount the number of bytes, both
 * multiples of 4 (VUID-VkWriteDescriptorSet-descriptorType-02219/02220). */
static uint8_t *inline_block_bytes(const struct vkmm_descriptor_set *set, uint32_t binding, uint32_t offset,
                                   uint32_t size, const char **problem)
{
    const struct vkmm_set_layout_binding *b = vkmm_descriptor_set_layout_find(set->layout, binding);
    if (!b || b->type != VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)
        *problem = "the binding is not an inline uniform block of the set's layout";
    else if (offset % 4 || size % 4)
        *problem = "the byte offset and the byte count must be multiples of 4";
    else if (offset > b->inline_size || size > b->inline_size - offset)
        *problem = "the bytes run past the end of the block";
    else
        return (uint8_t *)&set->descriptors[set->descriptor_count] + b->inline_offset + offset;
    return NULL;
}

static void write_inline_block(struct vkmm_descriptor_set *set, uint32_t binding, uint32_t offset, uint32_t size,
                               const void *data)
{
    const char *problem = "no data (VkWriteDescriptorSetInlineUniformBlock) was given";
    uint8_t *bytes = data ? inline_block_bytes(set, binding, offset, size, &problem) : NULL;
    if (!bytes) {
        report_invalid(set, "write of %u bytes of the inline uniform block at binding %u, byte %u: %s; the write is "
                       "dropped", size, binding, offset, problem);
        return;
    }
    memcpy(bytes, data, size);
}

static void copy_inline_block(const VkCopyDescriptorSet *copy, struct vkmm_descriptor_set *src,
                              struct vkmm_descriptor_set *dst)
{
    const char *problem = NULL, *side = "source";
    uint8_t *from = inline_block_bytes(src, copy->srcBinding, copy->srcArrayElement, copy->descriptorCount, &problem);
    uint8_t *to = NULL;
    if (from) {
        side = "destination";
        to = inline_block_bytes(dst, copy->dstBinding, copy->dstArrayElement, copy->descriptorCount, &problem);
    }
    if (!to) {
        report_invalid(dst, "copy of %u bytes of an inline uniform block from binding %u, byte %u to binding %u, "
                       "byte %u: %s (%s); the copy is dropped", copy->descriptorCount, copy->srcBinding,
                       copy->srcArrayElement, copy->dstBinding, copy->dstArrayElement, problem, side);
        return;
    }
    memmove(to, from, copy->descriptorCount);
}

/* --- Writes and copies ------------------------------------------------------- */

void vkmm_descriptor_set_write(struct vkmm_descriptor_set *set, uint32_t dst_binding, uint32_t dst_element,
                               uint32_t count, VkDescriptorType type, const void *infos, size_t stride)
{
    if (type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
        write_inline_block(set, dst_binding, dst_element, count, infos);
        return;
    }
    uint32_t first;
    const char *problem = locate(set->layout, dst_binding, dst_element, count, type, &first);
    if (problem) {
        report_invalid(set, "write of %u descriptors of type %d at binding %u, element %u: %s; the write is dropped",
                       count, type, dst_binding, dst_element, problem);
        return;
    }
    if (!type_is_buffer(type)) {
        write_image_descriptors(set, first, count, type, infos, stride);
        return;
    }
    /* Every buffer is checked before any descriptor changes, so that an
     * invalid write leaves the set as it was. */
    for (uint32_t i = 0; i < count; i++) {
        const VkDescriptorBufferInfo *info = buffer_info_at(infos, stride, i);
        problem = check_buffer_info(set->base.device, type, info);
        if (!problem)
            continue;
        report_invalid(set,
                       "write of descriptor type %d at binding %u, element %u, buffer info %u (offset %llu, range "
                       "%llu): %s; the write is dropped",
                       type, dst_binding, dst_element, i, (unsigned long long)info->offset,
                       (unsigned long long)info->range, problem);
        return;
    }
    for (uint32_t i = 0; i < count; i++)
        write_buffer_descriptor(&set->descriptors[first + i], buffer_info_at(infos, stride, i));
}

static void copy_descriptors(const VkCopyDescriptorSet *copy)
{
    VKMM_FROM_HANDLE(vkmm_descriptor_set, src, copy->srcSet);
    VKMM_FROM_HANDLE(vkmm_descriptor_set, dst, copy->dstSet);
    const struct vkmm_set_layout_binding *src_binding = vkmm_descriptor_set_layout_find(src->layout, copy->srcBinding);
    if (!src_binding) {
        report_invalid(dst, "copy from binding %u: the binding is not in the source set's layout; the copy is dropped",
                       copy->srcBinding);
        return;
    }
    if (src_binding->type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
        copy_inline_block(copy, src, dst);
        return;
    }
    uint32_t src_first, dst_first;
    const char *problem = locate(src->layout, copy->srcBinding, copy->srcArrayElement, copy->descriptorCount,
                                 src_binding->type, &src_first);
    const char *side = "source";
    if (!problem) {
        problem = locate(dst->layout, copy->dstBinding, copy->dstArrayElement, copy->descriptorCount,
                         src_binding->type, &dst_first);
        side = "destination";
    }
    if (problem) {
        report_invalid(dst,
                       "copy of %u descriptors from binding %u, element %u to binding %u, element %u: %s (%s); the "
                       "copy is dropped",
                       copy->descriptorCount, copy->srcBinding, copy->srcArrayElement, copy->dstBinding,
                       copy->dstArrayElement, problem, side);
        return;
    }
    uint32_t n = copy->descriptorCount;
    if (src == dst && src_first < dst_first + n && dst_first < src_first + n)
        report_invalid(dst,
                       "copy of %u descriptors from binding %u, element %u to binding %u, element %u of the same set: "
                       "the spec says the ranges \"must not overlap\"; vkmm copies as if through a temporary",
                       n, copy->srcBinding, copy->srcArrayElement, copy->dstBinding, copy->dstArrayElement);
    memmove(&dst->descriptors[dst_first], &src->descriptors[src_first], (size_t)n * sizeof(struct vkmm_descriptor));
}

/* The bytes an inline uniform block write carries
 * (VkWriteDescriptorSetInlineUniformBlock, whose dataSize the spec makes
 * equal to descriptorCount), or NULL. */
static const void *inline_block_data(const VkWriteDescriptorSet *write)
{
    for (const VkBaseInStructure *s = write->pNext; s; s = s->pNext) {
        if (s->sType != VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK)
            continue;
        const VkWriteDescriptorSetInlineUniformBlock *block = (const VkWriteDescriptorSetInlineUniformBlock *)s;
        return block->dataSize == write->descriptorCount ? block->pData : NULL;
    }
    return NULL;
}

static void write_descriptors(const VkWriteDescriptorSet *write)
{
    VKMM_FROM_HANDLE(vkmm_descriptor_set, set, write->dstSet);
    const void *infos = write->pImageInfo;
    size_t stride = sizeof(VkDescriptorImageInfo);
    if (type_is_buffer(write->descriptorType)) {
        infos = write->pBufferInfo;
        stride = sizeof(VkDescriptorBufferInfo);
    } else if (type_is_texel_buffer(write->descriptorType)) {
        infos = write->pTexelBufferView;
        stride = sizeof(VkBufferView);
    } else if (write->descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
        infos = inline_block_data(write);
        stride = 1;
    }
    vkmm_descriptor_set_write(set, write->dstBinding, write->dstArrayElement, write->descriptorCount,
                              write->descriptorType, infos, stride);
}

VKAPI_ATTR void VKAPI_CALL vkmm_UpdateDescriptorSets(VkDevice _device, uint32_t descriptorWriteCount,
                                                     const VkWriteDescriptorSet *pDescriptorWrites,
                                                     uint32_t descriptorCopyCount,
                                                     const VkCopyDescriptorSet *pDescriptorCopies)
{
    (void)_device;
    /* The spec: "The operations described by pDescriptorWrites are
     * performed first, followed by the operations described by
     * pDescriptorCopies.  Within each array, the operations are performed in
     * the order they appear in the array." */
    for (uint32_t i = 0; i < descriptorWriteCount; i++)
        write_descriptors(&pDescriptorWrites[i]);
    for (uint32_t i = 0; i < descriptorCopyCount; i++)
        copy_descriptors(&pDescriptorCopies[i]);
}
