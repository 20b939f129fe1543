#include "build_identity.h"

#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "vkmm/vkmm.h"

void vkmm_sha256(const void *const *pieces, const size_t *sizes, size_t count, uint8_t out[VKMM_DIGEST_SIZE])
{
    memset(out, 0, VKMM_DIGEST_SIZE);
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (!context)
        return;
    bool ok = EVP_DigestInit_ex(context, EVP_sha256(), NULL) == 1;
    for (size_t i = 0; ok && i < count; i++)
        ok = EVP_DigestUpdate(context, pieces[i], sizes[i]) == 1;
    if (ok)
        EVP_DigestFinal_ex(context, out, NULL);
    EVP_MD_CTX_free(context);
}

bool vkmm_hmac_sha256(const uint8_t key[VKMM_DIGEST_SIZE], const void *const *pieces, const size_t *sizes,
                      size_t count, uint8_t out[VKMM_DIGEST_SIZE])
{
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    EVP_MAC_CTX *context = mac ? EVP_MAC_CTX_new(mac) : NULL;
    char digest[] = "SHA256";
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
        OSSL_PARAM_construct_end(),
    };
    bool ok = context && EVP_MAC_init(context, key, VKMM_DIGEST_SIZE, params) == 1;
    for (size_t i = 0; ok && i < count; i++)
        ok = EVP_MAC_update(context, pieces[i], sizes[i]) == 1;
    size_t length = 0;
    ok = ok && EVP_MAC_final(context, out, &length, VKMM_DIGEST_SIZE) == 1 && length == VKMM_DIGEST_SIZE;
    EVP_MAC_CTX_free(context);
    EVP_MAC_free(mac);
    return ok;
}

struct note_search {
    uintptr_t address; /* inside the object we look for */
    const uint8_t *id;
    size_t size;
};

static bool contains(const struct dl_phdr_info *info, uintptr_t address)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + p->p_vaddr;
        if (p->p_type == PT_LOAD && address >= start && address - start < p->p_memsz)
            return true;
    }
    return false;
}

/* The NT_GNU_BUILD_ID descriptor among the object's PT_NOTE segments. */
static int find_build_id(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct note_search *search = data;
    if (!contains(info, search->address))
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type != PT_NOTE)
            continue;
        const uint8_t *at = (const uint8_t *)(info->dlpi_addr + p->p_vaddr), *end = at + p->p_memsz;
        while ((size_t)(end - at) >= sizeof(ElfW(Nhdr))) {
            const ElfW(Nhdr) *note = (const ElfW(Nhdr) *)at;
            size_t name = (note->n_namesz + 3u) & ~3u, desc = (note->n_descsz + 3u) & ~3u;
            if ((size_t)(end - at) - sizeof(*note) < name + desc)
                break;
            if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
                memcmp(at + sizeof(*note), "GNU", 4) == 0) {
                search->id = at + sizeof(*note) + name;
                search->size = note->n_descsz;
                return 1;
            }
            at += sizeof(*note) + name + desc;
        }
    }
    return 1;
}

static uint8_t identity[VKMM_DIGEST_SIZE];
static pthread_once_t identity_once = PTHREAD_ONCE_INIT;

static void compute_identity(void)
{
    struct note_search search = { .address = (uintptr_t)&compute_identity };
    dl_iterate_phdr(find_build_id, &search);
    static const char fallback[] = "vkmm " VKMM_VERSION_STRING " " __DATE__ " " __TIME__;
    const void *pieces[] = { "vkmm build identity", search.id ? (const void *)search.id : fallback };
    size_t sizes[] = { 19, search.id ? search.size : sizeof(fallback) };
    vkmm_sha256(pieces, sizes, 2, identity);
}

const uint8_t *vkmm_build_identity(void)
{
    pthread_once(&identity_once, compute_identity);
    return identity;
}
