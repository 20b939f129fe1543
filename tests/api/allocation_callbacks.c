/* VkAllocationCallbacks: vkmm allocates host memory through them, answers
 * VK_ERROR_OUT_OF_HOST_MEMORY when one fails (whichever it is), leaves
 * nothing behind after a failure, and frees everything it allocated.
 *
 * The loader allocates through the same callbacks, so the allocator tells
 * vkmm's allocations from the loader's by the module that called it.  These
 * tests run without the validation layer, which allocates through the
 * callbacks too. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

#define MAX_ATTEMPTS 1000

struct allocation {
    void *pointer;
    size_t size;
    bool vkmm;
};

/* Counts live allocations and fails the fail_at-th allocation call (counted
 * from arming; only vkmm's calls when only_vkmm).  vkmm's queue threads free
 * submissions, hence the lock. */
struct tracker {
    pthread_mutex_t lock;
    struct allocation *items;
    size_t count, capacity;
    int64_t fail_at; /* -1: never */
    bool only_vkmm;
    uint32_t calls;    /* allocation calls that count towards fail_at */
    uint32_t injected; /* failures injected */
    uint32_t injected_vkmm; /* of which into vkmm's calls */
    uint32_t live_vkmm;
    uint32_t vkmm_allocations;
    uint32_t vkmm_scopes; /* bit per VkSystemAllocationScope seen from vkmm */
    uint32_t bad_frees, bad_alignments;
};

static struct tracker tracker = { .lock = PTHREAD_MUTEX_INITIALIZER, .fail_at = -1 };

static bool called_from_vkmm(const void *return_address)
{
    Dl_info info;
    if (!dladdr(return_address, &info) || !info.dli_fname)
        return false;
    return strstr(info.dli_fname, "libvkmm") != NULL;
}

/* Lock held.  Returns true when this call must fail. */
static bool should_fail(bool vkmm)
{
    if (tracker.only_vkmm && !vkmm)
        return false;
    uint32_t call = tracker.calls++;
    if (tracker.fail_at >= 0 && call == (uint64_t)tracker.fail_at) {
        tracker.injected++;
        tracker.injected_vkmm += vkmm;
        return true;
    }
    return false;
}

static void record(void *pointer, size_t size, bool vkmm, VkSystemAllocationScope scope)
{
    if (tracker.count == tracker.capacity) {
        tracker.capacity = tracker.capacity ? tracker.capacity * 2 : 256;
        tracker.items = realloc(tracker.items, tracker.capacity * sizeof(*tracker.items));
        if (!tracker.items)
            abort();
    }
    tracker.items[tracker.count++] = (struct allocation){ pointer, size, vkmm };
    if (vkmm) {
        tracker.live_vkmm++;
        tracker.vkmm_allocations++;
        tracker.vkmm_scopes |= 1u << scope;
    }
}

/* Lock held.  Removes `pointer`; returns its index's entry or NULL. */
static bool forget(void *pointer, struct allocation *out)
{
    for (size_t i = tracker.count; i-- > 0;) {
        if (tracker.items[i].pointer == pointer) {
            *out = tracker.items[i];
            tracker.items[i] = tracker.items[--tracker.count];
            if (out->vkmm)
                tracker.live_vkmm--;
            return true;
        }
    }
    return false;
}

static void *allocate_locked(size_t size, size_t alignment, VkSystemAllocationScope scope, bool vkmm)
{
    if (!alignment || (alignment & (alignment - 1))) {
        tracker.bad_alignments++;
        return NULL;
    }
    if (should_fail(vkmm))
        return NULL;
    void *pointer = NULL;
    if (posix_memalign(&pointer, alignment < sizeof(void *) ? sizeof(void *) : alignment, size ? size : 1))
        return NULL;
    record(pointer, size, vkmm, scope);
    return pointer;
}

static void *VKAPI_PTR on_allocation(void *user, size_t size, size_t alignment, VkSystemAllocationScope scope)
{
    (void)user;
    bool vkmm = called_from_vkmm(__builtin_return_address(0));
    pthread_mutex_lock(&tracker.lock);
    void *pointer = allocate_locked(size, alignment, scope, vkmm);
    pthread_mutex_unlock(&tracker.lock);
    return pointer;
}

static void VKAPI_PTR on_free(void *user, void *pointer)
{
    (void)user;
    if (!pointer)
        return;
    pthread_mutex_lock(&tracker.lock);
    struct allocation a;
    bool known = forget(pointer, &a);
    if (!known)
        tracker.bad_frees++;
    pthread_mutex_unlock(&tracker.lock);
    if (known)
        free(pointer);
}

static void *VKAPI_PTR on_reallocation(void *user, void *original, size_t size, size_t alignment,
                                       VkSystemAllocationScope scope)
{
    (void)user;
    bool vkmm = called_from_vkmm(__builtin_return_address(0));
    if (!original)
        return on_allocation(user, size, alignment, scope);
    if (size == 0) {
        on_free(user, original);
        return NULL;
    }
    pthread_mutex_lock(&tracker.lock);
    void *pointer = allocate_locked(size, alignment, scope, vkmm);
    struct allocation old = { 0 };
    if (pointer) {
        if (!forget(original, &old))
            tracker.bad_frees++;
        memcpy(pointer, original, old.size < size ? old.size : size);
    }
    pthread_mutex_unlock(&tracker.lock);
    if (pointer && old.pointer)
        free(original);
    return pointer;
}

static const VkAllocationCallbacks callbacks = {
    .pfnAllocation = on_allocation,
    .pfnReallocation = on_reallocation,
    .pfnFree = on_free,
};

/* Starts counting calls anew; fails call `fail_at` (-1: none). */
static void arm(int64_t fail_at, bool only_vkmm)
{
    pthread_mutex_lock(&tracker.lock);
    tracker.fail_at = fail_at;
    tracker.only_vkmm = only_vkmm;
    tracker.calls = 0;
    tracker.injected = 0;
    tracker.injected_vkmm = 0;
    tracker.vkmm_allocations = 0;
    tracker.vkmm_scopes = 0;
    pthread_mutex_unlock(&tracker.lock);
}

static uint32_t live_all(void)
{
    pthread_mutex_lock(&tracker.lock);
    uint32_t n = (uint32_t)tracker.count;
    pthread_mutex_unlock(&tracker.lock);
    return n;
}

static uint32_t live_vkmm(void)
{
    pthread_mutex_lock(&tracker.lock);
    uint32_t n = tracker.live_vkmm;
    pthread_mutex_unlock(&tracker.lock);
    return n;
}

static uint32_t injected(void)
{
    pthread_mutex_lock(&tracker.lock);
    uint32_t n = tracker.injected;
    pthread_mutex_unlock(&tracker.lock);
    return n;
}

static uint32_t injected_vkmm(void)
{
    pthread_mutex_lock(&tracker.lock);
    uint32_t n = tracker.injected_vkmm;
    pthread_mutex_unlock(&tracker.lock);
    return n;
}

static void check_sanity(void)
{
    assert_int_equal(tracker.bad_frees, 0);
    assert_int_equal(tracker.bad_alignments, 0);
}

static VKAPI_ATTR VkBool32 VKAPI_CALL quiet_callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                     VkDebugUtilsMessageTypeFlagsEXT types,
                                                     const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)severity, (void)types, (void)data, (void)user;
    return VK_FALSE;
}

static VkResult create_instance(const VkAllocationCallbacks *allocator, VkInstance *instance)
{
    const char *extensions[] = { VK_EXT_DEBUG_UTILS_EXTENSION_NAME };
    /* Chained so that vkmm keeps a copy for creation and destruction. */
    VkDebugUtilsMessengerCreateInfoEXT messenger = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
        .pfnUserCallback = quiet_callback,
    };
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .apiVersion = VK_API_VERSION_1_3,
    };
    VkInstanceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = &messenger,
        .pApplicationInfo = &app,
        .enabledExtensionCount = 1,
        .ppEnabledExtensionNames = extensions,
    };
    return vkCreateInstance(&info, allocator, instance);
}

static VkPhysicalDevice first_physical_device(VkInstance instance)
{
    VkPhysicalDevice pd = VK_NULL_HANDLE;
    uint32_t count = 1;
    VkResult r = vkEnumeratePhysicalDevices(instance, &count, &pd);
    assert_true(r == VK_SUCCESS || r == VK_INCOMPLETE);
    assert_non_null(pd);
    return pd;
}

/* Creates an instance with allocation call `n` failing; returns true when
 * it succeeded without an injected failure (then nothing more to try). */
static bool try_instance(int64_t n, bool only_vkmm, uint32_t *failures)
{
    arm(n, only_vkmm);
    VkInstance instance = VK_NULL_HANDLE;
    VkResult result = create_instance(&callbacks, &instance);
    if (result == VK_SUCCESS && injected() != 0) {
        /* The loader gets by without some of its allocations; vkmm must not
         * succeed without one of its own. */
        assert_int_equal(injected_vkmm(), 0);
        arm(-1, false);
        vkDestroyInstance(instance, &callbacks);
        assert_int_equal(live_all(), 0);
        return false;
    }
    if (result == VK_SUCCESS) {
        /* vkmm allocated the instance through the callbacks, with instance
         * scope. */
        assert_true(live_vkmm() >= 1);
        assert_true(tracker.vkmm_scopes & (1u << VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE));
        arm(-1, false);
        first_physical_device(instance);
        vkDestroyInstance(instance, &callbacks);
        assert_int_equal(live_all(), 0);
        return true;
    }
    (*failures)++;
    assert_int_equal(injected(), 1);
    if (injected_vkmm())
        assert_int_equal(result, VK_ERROR_OUT_OF_HOST_MEMORY);
    else if (result != VK_ERROR_OUT_OF_HOST_MEMORY && result != VK_ERROR_INITIALIZATION_FAILED &&
             result != VK_ERROR_INCOMPATIBLE_DRIVER)
        fail_msg("allocation %lld failed: vkCreateInstance returned %d", (long long)n, result);
    if (live_vkmm() != 0)
        fail_msg("after failing allocation %lld vkmm still holds %u allocations", (long long)n, live_vkmm());
    if (live_all() != 0)
        fail_msg("after failing allocation %lld %u allocations are live", (long long)n, live_all());
    return false;
}

static void test_instance_creation_out_of_memory(void **state)
{
    (void)state;
    /* Failing only vkmm's allocations, one after the other: each failure
     * comes back as VK_ERROR_OUT_OF_HOST_MEMORY. */
    uint32_t failures = 0;
    int64_t n = 0;
    while (!try_instance(n, true, &failures)) {
        n++;
        assert_true(n < MAX_ATTEMPTS);
    }
    assert_true(failures >= 2); /* the instance and its copy of the messenger */

    /* Failing any allocation, the loader's too.  The loader makes well over
     * a thousand (manifest parsing), so every 32nd of those, and every one
     * of the last ones, where the loader calls into vkmm. */
    arm(-1, false);
    VkInstance instance = VK_NULL_HANDLE;
    VK_CHECK(create_instance(&callbacks, &instance));
    const int64_t total = tracker.calls;
    vkDestroyInstance(instance, &callbacks);
    assert_int_equal(live_all(), 0);
    failures = 0;
    for (n = 0; n < total; n += n < total - 48 ? 32 : 1)
        assert_false(try_instance(n, false, &failures));
    assert_true(failures > 0);
    assert_true(try_instance(total, false, &failures));
    check_sanity();
}

static VkResult create_device(VkPhysicalDevice pd, const VkAllocationCallbacks *allocator, VkDevice *device)
{
    static const float priorities[4] = { 1, 1, 1, 1 };
    VkDeviceQueueCreateInfo queues[2] = {
        {
            .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
            .queueFamilyIndex = 0,
            .queueCount = 4,
            .pQueuePriorities = priorities,
        },
        {
            .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
            .queueFamilyIndex = 1,
            .queueCount = 2,
            .pQueuePriorities = priorities,
        },
    };
    VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .queueCreateInfoCount = 2,
        .pQueueCreateInfos = queues,
    };
    return vkCreateDevice(pd, &info, allocator, device);
}

static void test_device_creation_out_of_memory(void **state)
{
    (void)state;
    arm(-1, false);
    VkInstance instance = VK_NULL_HANDLE;
    VK_CHECK(create_instance(NULL, &instance));
    VkPhysicalDevice pd = first_physical_device(instance);
    assert_int_equal(live_all(), 0);
    for (int only_vkmm = 0; only_vkmm < 2; only_vkmm++) {
        uint32_t failures = 0;
        int64_t n;
        for (n = 0; n < MAX_ATTEMPTS; n++) {
            arm(n, only_vkmm);
            VkDevice device = VK_NULL_HANDLE;
            VkResult result = create_device(pd, &callbacks, &device);
            if (result == VK_SUCCESS && injected() != 0) {
                assert_int_equal(injected_vkmm(), 0);
                arm(-1, false);
                vkDestroyDevice(device, &callbacks);
                assert_int_equal(live_all(), 0);
                continue;
            }
            if (result == VK_SUCCESS) {
                assert_true(tracker.vkmm_scopes & (1u << VK_SYSTEM_ALLOCATION_SCOPE_DEVICE));
                /* The device, its 6 queues and its scheduler at least. */
                assert_true(live_vkmm() >= 8);
                arm(-1, false);
                VkQueue queue = VK_NULL_HANDLE;
                vkGetDeviceQueue(device, 1, 1, &queue);
                assert_non_null(queue);
                VK_CHECK(vkQueueWaitIdle(queue));
                vkDestroyDevice(device, &callbacks);
                break;
            }
            failures++;
            assert_int_equal(injected(), 1);
            if (only_vkmm)
                assert_int_equal(result, VK_ERROR_OUT_OF_HOST_MEMORY);
            else if (result != VK_ERROR_OUT_OF_HOST_MEMORY && result != VK_ERROR_INITIALIZATION_FAILED)
                fail_msg("allocation %lld failed: vkCreateDevice returned %d", (long long)n, result);
            if (live_all() != 0)
                fail_msg("after failing allocation %lld %u allocations (%u vkmm's) are live", (long long)n,
                         live_all(), live_vkmm());
        }
        assert_true(n < MAX_ATTEMPTS);
        assert_true(failures >= 8);
        assert_int_equal(live_all(), 0);
        check_sanity();
    }
    vkDestroyInstance(instance, NULL);
}

/* One kind of object: create with `allocator`, destroy with it. */
struct object_kind {
    const char *name;
    VkResult (*create)(struct vkmm_test *t, const VkAllocationCallbacks *allocator, uint64_t *handle);
    void (*destroy)(struct vkmm_test *t, const VkAllocationCallbacks *allocator, uint64_t handle);
};

#define HANDLE(h) ((uint64_t)(uintptr_t)(h))

static VkResult create_buffer(struct vkmm_test *t, const VkAllocationCallbacks *a, uint64_t *h)
{
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = 1024,
        .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
    };
    VkBuffer buffer = VK_NULL_HANDLE;
    VkResult r = vkCreateBuffer(t->device, &info, a, &buffer);
    *h = HANDLE(buffer);
    return r;
}
static void destroy_buffer(struct vkmm_test *t, const VkAllocationCallbacks *a, uint64_t h)
{
    vkDestroyBuffer(t->device, (VkBuffer)(uintptr_t)h, a);
}

static VkResult create_memory(struct vkmm_test *t, const VkAllocationCallbacks *a, uint64_t *h)
{
    VkMemoryAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = 4096,
        .memoryTypeIndex = 1,
    };
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkResult r = vkAllocateMemory(t->device, &info, a, &memory);
    *h = HANDLE(memory);
    return r;
}
static void destroy_memory(struct vkmm_test *t, const VkAllocationCallbacks *a, uint64_t h)
{
    vkFreeMemory(t->device, (VkDeviceMemory)(uintptr_t)h, a);
}

static VkResult create_fence(struct vkmm_test *t, const VkAllocationCallbacks *a, uint64_t *h)
{
    VkFenceCreateInfo info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, .flags = VK_FENCE_CREATE_SIGNALED_BIT };
    VkFence fence = VK_NULL_HANDLE;
    VkResult r = vkCreateFence(t->device, &info, a, &fence);
    *h = HANDLE(fence);
    return r;
}
static void destroy_fence(struct vkmm_test *t, const VkAllocationCallbacks *a, uint64_t h)
{
    vkDestroyFence(t->device, (VkFence)(uintptr_t)h, a);
}

static VkResult create_semaphore(struct vkmm_test *t, const VkAllocationCallbacks *a, uint64_t *h)
{
    VkSemaphoreCreateInfo info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO };
    VkSemaphore semaphore = VK_NULL_HANDLE;
    VkResult r = vkCreateSemaphore(t->device, &info, a, &semaphore);
    *h = HANDLE(semaphore);
    return r;
}
static VkResult create_timeline_semaphore(struct vkmm_test *t, const VkAllocationCallbacks *a, uint64_t *h)
{
    VkSemaphoreTypeCreateInfo type = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
        .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
        .initialValue = 5,
    };
    VkSemaphoreCreateInfo info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type };
    VkSemaphore semaphore = VK_NULL_HANDLE;
    VkResult r = vkCreateSemaphore(t->device, &info, a, &semaphore);
    *h = HANDLE(semaphore);
    return r;
}
static void destroy_semaphore(struct vkmm_test *t, const VkAllocationCallbacks *a, uint64_t h)
{
    vkDestroySemaphore(t->device, (VkSemaphore)(uintptr_t)h, a);
}

static VkResult create_event(struct vkmm_test *t, const VkAllocationCallbacks *a, uint64_t *h)
{
    VkEventCreateInfo info = { .sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO };
    VkEvent event = VK_NULL_HANDLE;
    VkResult r = vkCreateEvent(t->device, &info, a, &event);
    *h = HANDLE(event);
    return r;
}
static void destroy_event(struct vkmm_test *t, const VkAllocationCallbacks *a, uint64_t h)
{
    vkDestroyEvent(t->device, (VkEvent)(uintptr_t)h, a);
}

static VkResult create_query_pool(struct vkmm_test *t, const VkAllocationCallbacks *a, uint64_t *h)
{
    VkQueryPoolCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = VK_QUERY_TYPE_TIMESTAMP,
        .queryCount = 64,
    };
    VkQueryPool pool = VK_NULL_HANDLE;
    VkResult r = vkCreateQueryPool(t->device, &info, a, &pool);
    *h = HANDLE(pool);
    return r;
}
static void destroy_query_pool(struct vkmm_test *t, const VkAllocationCallbacks *a, uint64_t h)
{
    vkDestroyQueryPool(t->device, (VkQueryPool)(uintptr_t)h, a);
}

static VkResult create_command_pool(struct vkmm_test *t, const VkAllocationCallbacks *a, uint64_t *h)
{
    VkCommandPoolCreateInfo info = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = 1 };
    VkCommandPool pool = VK_NULL_HANDLE;
    VkResult r = vkCreateCommandPool(t->device, &info, a, &pool);
    *h = HANDLE(pool);
    return r;
}
static void destroy_command_pool(struct vkmm_test *t, const VkAllocationCallbacks *a, uint64_t h)
{
    vkDestroyCommandPool(t->device, (VkCommandPool)(uintptr_t)h, a);
}

static VkResult create_private_data_slot(struct vkmm_test *t, const VkAllocationCallbacks *a, uint64_t *h)
{
    VkPrivateDataSlotCreateInfo info = { .sType = VK_STRUCTURE_TYPE_PRIVATE_DATA_SLOT_CREATE_INFO };
    VkPrivateDataSlot slot = VK_NULL_HANDLE;
    VkResult r = vkCreatePrivateDataSlot(t->device, &info, a, &slot);
    *h = HANDLE(slot);
    return r;
}
static void destroy_private_data_slot(struct vkmm_test *t, const VkAllocationCallbacks *a, uint64_t h)
{
    vkDestroyPrivateDataSlot(t->device, (VkPrivateDataSlot)(uintptr_t)h, a);
}

static VkResult create_messenger(struct vkmm_test *t, const VkAllocationCallbacks *a, uint64_t *h)
{
    PFN_vkCreateDebugUtilsMessengerEXT create =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(t->instance, "vkCreateDebugUtilsMessengerEXT");
    VkDebugUtilsMessengerCreateInfoEXT info = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
        .pfnUserCallback = quiet_callback,
    };
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VkResult r = create(t->instance, &info, a, &messenger);
    *h = HANDLE(messenger);
    return r;
}
static void destroy_messenger(struct vkmm_test *t, const VkAllocationCallbacks *a, uint64_t h)
{
    PFN_vkDestroyDebugUtilsMessengerEXT destroy =
        (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(t->instance, "vkDestroyDebugUtilsMessengerEXT");
    destroy(t->instance, (VkDebugUtilsMessengerEXT)(uintptr_t)h, a);
}

static const struct object_kind kinds[] = {
    { "VkBuffer", create_buffer, destroy_buffer },
    { "VkDeviceMemory", create_memory, destroy_memory },
    { "VkFence", create_fence, destroy_fence },
    { "VkSemaphore (binary)", create_semaphore, destroy_semaphore },
    { "VkSemaphore (timeline)", create_timeline_semaphore, destroy_semaphore },
    { "VkEvent", create_event, destroy_event },
    { "VkQueryPool", create_query_pool, destroy_query_pool },
    { "VkCommandPool", create_command_pool, destroy_command_pool },
    { "VkPrivateDataSlot", create_private_data_slot, destroy_private_data_slot },
    { "VkDebugUtilsMessengerEXT", create_messenger, destroy_messenger },
};

static void test_object_creation_out_of_memory(void **state)
{
    (void)state;
    arm(-1, false);
    const struct vkmm_test_options options = { .no_validation = true };
    struct vkmm_test *t = vkmm_test_create(&options);
    assert_int_equal(live_all(), 0);
    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        const struct object_kind *kind = &kinds[k];
        uint32_t failures = 0;
        int64_t n;
        for (n = 0; n < MAX_ATTEMPTS; n++) {
            arm(n, false);
            uint64_t handle = 0;
            uint32_t errors = t->driver_errors + t->validation_errors;
            /* vkmm reports its failures; the loader may report its own. */
            t->expected_errors += 4;
            VkResult result = kind->create(t, &callbacks, &handle);
            t->expected_errors = t->expected_errors - 4 + (t->driver_errors + t->validation_errors - errors);
            if (result == VK_SUCCESS) {
                assert_int_equal(injected(), 0);
                assert_true(handle != 0);
                /* The object's memory came from the given callbacks, with
                 * object scope. */
                if (live_vkmm() == 0)
                    fail_msg("%s: vkmm did not allocate through pAllocator", kind->name);
                if (tracker.vkmm_scopes != 1u << VK_SYSTEM_ALLOCATION_SCOPE_OBJECT)
                    fail_msg("%s: vkmm allocated with scopes 0x%x", kind->name, tracker.vkmm_scopes);
                arm(-1, false);
                kind->destroy(t, &callbacks, handle);
                break;
            }
            failures++;
            if (result != VK_ERROR_OUT_OF_HOST_MEMORY)
                fail_msg("%s: failing allocation %lld gave %d", kind->name, (long long)n, result);
            assert_int_equal(injected(), 1);
            if (live_all() != 0)
                fail_msg("%s: after failing allocation %lld, %u allocations are live", kind->name, (long long)n,
                         live_all());
        }
        assert_true(n < MAX_ATTEMPTS);
        if (failures < 1)
            fail_msg("%s: creation never allocated", kind->name);
        if (live_all() != 0)
            fail_msg("%s: %u allocations live after destruction", kind->name, live_all());
        check_sanity();
    }
    vkmm_test_destroy(t);
}

static void test_command_buffer_allocation_out_of_memory(void **state)
{
    (void)state;
    arm(-1, false);
    const struct vkmm_test_options options = { .no_validation = true };
    struct vkmm_test *t = vkmm_test_create(&options);
    /* Command buffers take their memory from the pool's allocator. */
    VkCommandPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = 0,
    };
    VkCommandPool pool = VK_NULL_HANDLE;
    VK_CHECK(vkCreateCommandPool(t->device, &pool_info, &callbacks, &pool));
    const uint32_t pool_allocations = live_all();
    assert_true(pool_allocations >= 1);

    enum { COUNT = 5 };
    VkCommandBufferAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = COUNT,
    };
    for (int64_t fail = 0; fail < COUNT; fail++) {
        VkCommandBuffer cmds[COUNT];
        for (uint32_t i = 0; i < COUNT; i++)
            cmds[i] = (VkCommandBuffer)(uintptr_t)(0x1000 + i);
        arm(fail, false);
        uint32_t before = t->driver_errors;
        t->expected_errors++;
        assert_int_equal(vkAllocateCommandBuffers(t->device, &info, cmds), VK_ERROR_OUT_OF_HOST_MEMORY);
        assert_int_equal(t->driver_errors, before + 1);
        assert_string_equal(t->last_message_id, "VK_ERROR_OUT_OF_HOST_MEMORY");
        /* The spec: on failure every element of pCommandBuffers is NULL and
         * the buffers that were created are gone. */
        for (uint32_t i = 0; i < COUNT; i++)
            assert_null(cmds[i]);
        assert_int_equal(live_all(), pool_allocations);
    }

    /* Without failures: all allocated, usable, and freed. */
    arm(-1, false);
    VkCommandBuffer cmds[COUNT];
    VK_CHECK(vkAllocateCommandBuffers(t->device, &info, cmds));
    assert_true(live_all() >= pool_allocations + COUNT);
    for (uint32_t i = 0; i < COUNT; i++) {
        VkCommandBufferBeginInfo begin = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
        VK_CHECK(vkBeginCommandBuffer(cmds[i], &begin));
        VK_CHECK(vkEndCommandBuffer(cmds[i]));
    }
    vkFreeCommandBuffers(t->device, pool, COUNT, cmds);
    vkTrimCommandPool(t->device, pool, 0);
    assert_int_equal(live_all(), pool_allocations);

    /* Destroying the pool frees buffers still allocated from it. */
    VK_CHECK(vkAllocateCommandBuffers(t->device, &info, cmds));
    vkDestroyCommandPool(t->device, pool, &callbacks);
    assert_int_equal(live_all(), 0);
    check_sanity();
    vkmm_test_destroy(t);
}

/* A whole session with the callbacks everywhere: after destruction nothing
 * is left, vkmm's or the loader's. */
static void test_no_leaks_after_workload(void **state)
{
    (void)state;
    arm(-1, false);
    const struct vkmm_test_options options = { .no_validation = true, .allocator = &callbacks };
    struct vkmm_test *t = vkmm_test_create(&options);
    assert_true(live_vkmm() > 0);

    struct vkmm_test_buffer a = vkmm_test_buffer_create(t, 4096, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                                     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 4096, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    memset(a.mapped, 0x3C, 4096);
    for (int round = 0; round < 4; round++) {
        VkCommandBuffer cmd = vkmm_test_begin(t);
        VkBufferCopy region = { .size = 4096 };
        vkCmdCopyBuffer(cmd, a.buffer, b.buffer, 1, &region);
        vkmm_test_full_barrier(cmd);
        vkCmdFillBuffer(cmd, b.buffer, 0, 256, 0x12345678u);
        vkmm_test_full_barrier(cmd);
        vkCmdCopyBuffer(cmd, b.buffer, a.buffer, 1, &region);
        vkmm_test_full_barrier(cmd);
        vkmm_test_submit_and_wait(t, t->compute_queues[round % 4], cmd);
    }
    assert_int_equal(((uint32_t *)a.mapped)[0], 0x12345678u);
    assert_int_equal(((uint8_t *)a.mapped)[4095], 0x3C);

    /* Names and private data live in device-owned storage. */
    PFN_vkSetDebugUtilsObjectNameEXT set_name =
        (PFN_vkSetDebugUtilsObjectNameEXT)vkGetInstanceProcAddr(t->instance, "vkSetDebugUtilsObjectNameEXT");
    VkDebugUtilsObjectNameInfoEXT name = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
        .objectType = VK_OBJECT_TYPE_BUFFER,
        .objectHandle = HANDLE(a.buffer),
        .pObjectName = "named buffer",
    };
    VK_CHECK(set_name(t->device, &name));
    VK_CHECK(set_name(t->device, &name)); /* renaming frees the old name */
    /* Enough entries to make the store grow twice. */
    enum { FENCES = 20 };
    VkFence fences[FENCES];
    VkPrivateDataSlot slots[2];
    for (uint32_t s = 0; s < 2; s++) {
        VkPrivateDataSlotCreateInfo slot_info = { .sType = VK_STRUCTURE_TYPE_PRIVATE_DATA_SLOT_CREATE_INFO };
        VK_CHECK(vkCreatePrivateDataSlot(t->device, &slot_info, NULL, &slots[s]));
    }
    for (uint32_t i = 0; i < FENCES; i++) {
        VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
        VK_CHECK(vkCreateFence(t->device, &fence_info, NULL, &fences[i]));
        for (uint32_t s = 0; s < 2; s++)
            VK_CHECK(vkSetPrivateData(t->device, VK_OBJECT_TYPE_FENCE, HANDLE(fences[i]), slots[s], i + s));
    }
    for (uint32_t i = 0; i < FENCES; i++)
        vkDestroyFence(t->device, fences[i], NULL);
    for (uint32_t s = 0; s < 2; s++)
        vkDestroyPrivateDataSlot(t->device, slots[s], NULL);

    vkmm_test_buffer_destroy(t, &a);
    vkmm_test_buffer_destroy(t, &b);
    vkmm_test_destroy(t);
    if (live_vkmm() != 0) {
        for (size_t i = 0; i < tracker.count; i++)
            fprintf(stderr, "live: %zu bytes%s\n", tracker.items[i].size, tracker.items[i].vkmm ? " (vkmm)" : "");
        fail_msg("vkmm leaked %u allocations", live_vkmm());
    }
    assert_int_equal(live_all(), 0);
    check_sanity();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_instance_creation_out_of_memory),
        cmocka_unit_test(test_device_creation_out_of_memory),
        cmocka_unit_test(test_object_creation_out_of_memory),
        cmocka_unit_test(test_command_buffer_allocation_out_of_memory),
        cmocka_unit_test(test_no_leaks_after_workload),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
