/* Shared set-up for API tests: they reach vkmm only through the Vulkan
 * loader (VK_ICD_FILENAMES points at the build tree's manifest), with the
 * Khronos validation layer enabled so the tests prove themselves valid
 * Vulkan.  Any validation or vkmm error message fails the test unless the
 * test says it expects some. */
#pragma once

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <vulkan/vulkan.h>

#define VKMM_TEST_MAX_QUEUES 8

struct vkmm_test {
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkDevice device;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDeviceMemoryProperties memory_properties;
    VkPhysicalDeviceProperties properties;
    /* Queues of family 0 (compute + transfer), then of family 1 (transfer). */
    VkQueue compute_queues[VKMM_TEST_MAX_QUEUES];
    uint32_t compute_queue_count;
    VkQueue transfer_queues[VKMM_TEST_MAX_QUEUES];
    uint32_t transfer_queue_count;
    VkCommandPool pool; /* family 0, RESET_COMMAND_BUFFER_BIT */
    bool validation;     /* the validation layer is active */

    /* Messages seen (error severity), split by source. */
    uint32_t validation_errors; /* from the validation layer */
    uint32_t driver_errors;     /* from vkmm (message IDs starting VKMM- or VK_) */
    uint32_t expected_errors;   /* errors the test allows: set by the test */
    char last_message[1024];
    char last_message_id[128];
    bool any_memory_type;       /* take a near kind when the exact one is missing */
    char first_message_id[128]; /* of the first error message */
    char first_message[512];
    char message_ids[512];      /* distinct IDs of the error messages, space-separated */
    uint32_t driver_warnings;   /* warnings from vkmm (VKMM-*) */
    char warning_ids[256];      /* their distinct IDs, space-separated */

    /* Strict mode's hazard reports (message IDs VKMM-HAZARD-*), in order. */
    uint32_t hazard_count;
    uint32_t dispatches_in_parts, dispatches_in_parts_again; /* VKMM-STRICT-PARTS(-AGAIN) messages */
    char hazards[32][48];
    char first_hazard_message[1024];
};

/* Options for creating the test instance/device. */
struct vkmm_test_options {
    bool no_validation;                 /* e.g. for deliberately invalid calls */
    const VkAllocationCallbacks *allocator;
    const void *device_features_chain;  /* pNext for VkDeviceCreateInfo */
    const char *const *device_extensions; /* enabled device extensions */
    uint32_t device_extension_count;
};

/* Creates instance (validation layer + debug messenger), device with every
 * queue of both families, and a command pool.  Fails the test on error. */
struct vkmm_test *vkmm_test_create(const struct vkmm_test_options *options);
/* Destroys everything and asserts that no unexpected error message came. */
void vkmm_test_destroy(struct vkmm_test *t);

/* CMocka group set-up/teardown storing a default vkmm_test in *state. */
int vkmm_test_setup(void **state);
int vkmm_test_teardown(void **state);

/* A buffer with its own memory of the given property flags (exact match
 * preferred), bound at offset 0. */
struct vkmm_test_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    uint32_t memory_type;
    void *mapped; /* non-NULL when the memory is host-visible */
};

/* The first memory type with `required` and none of `forbidden`, or UINT32_MAX. */
uint32_t vkmm_test_has_memory_type(const struct vkmm_test *t, VkMemoryPropertyFlags required,
                                   VkMemoryPropertyFlags forbidden);
uint32_t vkmm_test_find_memory_type(struct vkmm_test *t, VkMemoryPropertyFlags required,
                                    VkMemoryPropertyFlags forbidden);
struct vkmm_test_buffer vkmm_test_buffer_create(struct vkmm_test *t, VkDeviceSize size,
                                                VkMemoryPropertyFlags properties);
void vkmm_test_buffer_destroy(struct vkmm_test *t, struct vkmm_test_buffer *b);

/* Primary command buffer from t->pool, already begun with ONE_TIME_SUBMIT. */
VkCommandBuffer vkmm_test_begin(struct vkmm_test *t);
/* Ends, submits to `queue` with a fence, waits, frees the command buffer. */
void vkmm_test_submit_and_wait(struct vkmm_test *t, VkQueue queue, VkCommandBuffer cmd);

/* A full-memory barrier (synchronization2) from every write to every
 * access, including the host. */
void vkmm_test_full_barrier(VkCommandBuffer cmd);
/* Compute-shader writes made available and visible to host reads
 * (VkMemoryBarrier, COMPUTE_SHADER -> HOST). */
void vkmm_test_compute_to_host_barrier(VkCommandBuffer cmd);

#define VK_CHECK(call)                                                                      \
    do {                                                                                    \
        VkResult vk_check_result_ = (call);                                                 \
        if (vk_check_result_ != VK_SUCCESS)                                                 \
            fail_msg("%s returned %d at %s:%d", #call, vk_check_result_, __FILE__, __LINE__); \
    } while (0)

/* One image barrier (synchronization2) over every level and layer of the
 * aspect, from (src_stage, src_access) in layout `from` to (dst_stage,
 * dst_access) in layout `to`. */
struct vkmm_test_image_barrier {
    VkImage image;
    VkImageAspectFlags aspect; /* 0: COLOR */
    VkImageLayout from, to;
    VkPipelineStageFlags2 src_stage, dst_stage;
    VkAccessFlags2 src_access, dst_access;
};
void vkmm_test_image_barrier(VkCommandBuffer cmd, const struct vkmm_test_image_barrier *b);

/* --- Compute pipelines ------------------------------------------------- */

/* A compute pipeline from tests/shaders/<name>.comp (compiled at build
 * time) with `binding_count` storage buffers at set 0 bindings 0.. and
 * `push_size` bytes of push constants, plus a descriptor set for it. */
struct vkmm_test_compute {
    VkShaderModule module;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    uint32_t binding_count;
};

/* Reads build/tests/shaders/<name>.spv; free() the result. */
uint32_t *vkmm_test_load_spirv(const char *name, size_t *size_bytes);
struct vkmm_test_compute vkmm_test_compute_create(struct vkmm_test *t, const char *name, uint32_t binding_count,
                                                  uint32_t push_size, const VkSpecializationInfo *specialization);
/* The same with binding i of descriptor type types[i] (the caller writes
 * the descriptors that are not storage buffers). */
struct vkmm_test_compute vkmm_test_compute_create_typed(struct vkmm_test *t, const char *name, uint32_t binding_count,
                                                        const VkDescriptorType *types, uint32_t push_size,
                                                        const VkSpecializationInfo *specialization);
void vkmm_test_compute_bind_buffer(struct vkmm_test *t, struct vkmm_test_compute *c, uint32_t binding,
                                   VkBuffer buffer, VkDeviceSize offset, VkDeviceSize range);
/* Records bind + push + dispatch into `cmd`. */
void vkmm_test_compute_dispatch(struct vkmm_test_compute *c, VkCommandBuffer cmd, const void *push,
                                uint32_t push_size, uint32_t x, uint32_t y, uint32_t z);
void vkmm_test_compute_destroy(struct vkmm_test *t, struct vkmm_test_compute *c);
