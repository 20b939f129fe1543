/* The host-access trap (host_trap.h).  The handler touches only this
 * file's fixed tables, with lock-free atomics, and mprotect: what a signal
 * handler may do. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "host_trap.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#define MAX_REGIONS 256
#define MAX_HITS 1024

struct region {
    atomic_bool active; /* the fields below are set before it turns true */
    const void *owner;
    uint8_t *view;
    size_t span;
    uint64_t memory_id;
    uint64_t sequence;
    bool reads_open; /* PROT_READ: only writes fault (the work only reads the memory) */
};

struct hit {
    atomic_bool ready; /* the fields below are set before it turns true */
    const void *owner;
    struct vkmm_host_access access;
};

static struct region regions[MAX_REGIONS];
static struct hit hits[MAX_HITS];
static atomic_uint hit_count;
static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER; /* protect and release, never the handler */
static atomic_uint_fast64_t host_syncs; /* vkmm_host_trap_note_sync calls */
static struct sigaction previous;
static size_t page_size;
static bool installed;

static bool is_write(void *context)
{
#if defined(__x86_64__)
    /* The page-fault error code: bit 1 is set for a write. */
    return ((ucontext_t *)context)->uc_mcontext.gregs[REG_ERR] & 2;
#else
    (void)context;
    return false;
#endif
}

static void record(const struct region *r, uint64_t offset, bool write)
{
    unsigned index = atomic_fetch_add(&hit_count, 1);
    if (index >= MAX_HITS)
        return;
    struct hit *h = &hits[index];
    h->owner = r->owner;
    h->access = (struct vkmm_host_access){ r->memory_id, offset, r->sequence, write,
                                           atomic_load_explicit(&host_syncs, memory_order_relaxed) };
    atomic_store_explicit(&h->ready, true, memory_order_release);
}

/* Not ours: what would have happened without vkmm. */
static void chain(int signal, siginfo_t *info, void *context)
{
    if (previous.sa_flags & SA_SIGINFO) {
        previous.sa_sigaction(signal, info, context);
        return;
    }
    if (previous.sa_handler == SIG_DFL || previous.sa_handler == SIG_IGN) {
        /* Returning re-runs the access, which now gets the default action. */
        struct sigaction fallback = { .sa_handler = SIG_DFL };
        sigaction(SIGSEGV, &fallback, NULL);
        return;
    }
    previous.sa_handler(signal);
}

static void on_fault(int signal, siginfo_t *info, void *context)
{
    uint8_t *address = info->si_addr;
    for (unsigned i = 0; i < MAX_REGIONS; i++) {
        struct region *r = &regions[i];
        if (!atomic_load_explicit(&r->active, memory_order_acquire))
            continue;
        if (address < r->view || address >= r->view + r->span)
            continue;
        record(r, (uint64_t)(address - r->view), r->reads_open || is_write(context));
        uint8_t *page = (uint8_t *)((uintptr_t)address & ~(uintptr_t)(page_size - 1));
        mprotect(page, page_size, PROT_READ | PROT_WRITE);
        return;
    }
    chain(signal, info, context);
}

static pthread_once_t setting_once = PTHREAD_ONCE_INIT;
static bool allowed;

static void read_setting(void)
{
    const char *setting = getenv("VKMM_HOST_TRAP");
    allowed = !setting || strcmp(setting, "0") != 0;
    page_size = (size_t)sysconf(_SC_PAGESIZE);
}

/* Tables lock held.  Others (test frameworks, crash reporters) install
 * their own SIGSEGV handlers and restore older ones: the handler goes in
 * again whenever it is not the current one, and what it finds there is
 * what it chains to. */
static bool install_locked(void)
{
    struct sigaction current;
    if (sigaction(SIGSEGV, NULL, &current) != 0)
        return false;
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_fault) {
        installed = true;
        return true;
    }
    struct sigaction action = { .sa_sigaction = on_fault, .sa_flags = SA_SIGINFO };
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGSEGV, &action, &previous) != 0)
        return false;
    installed = true;
    return true;
}

/* The loader unloads vkmm with the last instance: the handler must not
 * outlive its code. */
__attribute__((destructor)) static void uninstall(void)
{
    struct sigaction current;
    if (!installed || sigaction(SIGSEGV, NULL, &current) != 0)
        return;
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_fault)
        sigaction(SIGSEGV, &previous, NULL);
}

bool vkmm_host_trap_enabled(void)
{
    pthread_once(&setting_once, read_setting);
    return allowed;
}

void vkmm_host_trap_note_sync(void)
{
    atomic_fetch_add(&host_syncs, 1);
}

uint64_t vkmm_host_trap_syncs(void)
{
    return atomic_load(&host_syncs);
}

bool vkmm_host_trap_protect(const void *owner, uint64_t memory_id, uint8_t *view, size_t span, uint64_t sequence,
                            bool reads_open)
{
    if (!vkmm_host_trap_enabled() || !span)
        return false;
    pthread_mutex_lock(&tables_lock);
    bool done = false;
    if (!install_locked()) {
        pthread_mutex_unlock(&tables_lock);
        return false;
    }
    for (unsigned i = 0; i < MAX_REGIONS && !done; i++) {
        struct region *r = &regions[i];
        if (atomic_load(&r->active))
            continue;
        r->owner = owner;
        r->view = view;
        r->span = span;
        r->memory_id = memory_id;
        r->sequence = sequence;
        r->reads_open = reads_open;
        atomic_store_explicit(&r->active, true, memory_order_release);
        done = mprotect(view, span, reads_open ? PROT_READ : PROT_NONE) == 0;
        if (!done)
            atomic_store(&r->active, false);
        break;
    }
    pthread_mutex_unlock(&tables_lock);
    return done;
}

uint32_t vkmm_host_trap_release(const void *owner, struct vkmm_host_access *out, uint32_t capacity)
{
    if (!installed)
        return 0;
    pthread_mutex_lock(&tables_lock);
    for (unsigned i = 0; i < MAX_REGIONS; i++) {
        struct region *r = &regions[i];
        if (!atomic_load(&r->active) || r->owner != owner)
            continue;
        mprotect(r->view, r->span, PROT_READ | PROT_WRITE);
        atomic_store(&r->active, false);
    }
    uint32_t count = 0;
    unsigned seen = atomic_load(&hit_count);
    bool all_taken = true;
    for (unsigned i = 0; i < seen && i < MAX_HITS; i++) {
        struct hit *h = &hits[i];
        if (!atomic_load_explicit(&h->ready, memory_order_acquire)) {
            all_taken = all_taken && h->owner == NULL;
            continue;
        }
        if (h->owner != owner) {
            all_taken = false;
            continue;
        }
        if (count < capacity)
            out[count++] = h->access;
        h->owner = NULL;
        atomic_store(&h->ready, false);
    }
    /* Start the table over when every hit was taken and none came since. */
    if (all_taken)
        atomic_compare_exchange_strong(&hit_count, &seen, 0);
    pthread_mutex_unlock(&tables_lock);
    return count;
}
