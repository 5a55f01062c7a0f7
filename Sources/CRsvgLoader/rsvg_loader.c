#define _GNU_SOURCE
#include "CRsvgLoader.h"

#include <CDynamicLibrary.h>

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__x86_64__)
#define RK_ELF_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define RK_ELF_MACHINE EM_AARCH64
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define RK_ELF_DATA ELFDATA2LSB
#else
#define RK_ELF_DATA ELFDATA2MSB
#endif

// The most bytes of symbol or string table read from a library; librsvg's are a few kilobytes.
enum { RK_TABLE_LIMIT = 64 << 20 };

// MARK: - The version in a file

// Reads exactly `size` bytes at `offset`, which must lie inside a file of `file_size` bytes.
static int read_at(int fd, void *buffer, uint64_t size, uint64_t offset, uint64_t file_size) {
    if (offset > file_size || size > file_size - offset) return -1;
    uint8_t *bytes = buffer;
    while (size > 0) {
        ssize_t got = pread(fd, bytes, size, (off_t)offset);
        if (got <= 0) return -1;
        bytes += got;
        size -= (uint64_t)got;
        offset += (uint64_t)got;
    }
    return 0;
}

// Reads a section's whole contents into a new buffer (freed by the caller); NULL if it does
// not lie inside the file or is larger than RK_TABLE_LIMIT.
static void *read_section(int fd, const Elf64_Shdr *section, uint64_t file_size) {
    if (section->sh_type == SHT_NOBITS || section->sh_size == 0 || section->sh_size > RK_TABLE_LIMIT) return NULL;
    void *contents = malloc(section->sh_size);
    if (contents && read_at(fd, contents, section->sh_size, section->sh_offset, file_size) != 0) {
        free(contents);
        return NULL;
    }
    return contents;
}

// The 32-bit value of the defined symbol `symbol` (a `const guint`), from the file.
static int read_guint(int fd, const Elf64_Sym *symbol, const Elf64_Shdr *sections, unsigned count,
                      uint64_t file_size, unsigned *value) {
    if (symbol->st_shndx == SHN_UNDEF || symbol->st_shndx >= count) return -1;
    const Elf64_Shdr *section = &sections[symbol->st_shndx];
    uint32_t raw;
    if (section->sh_type == SHT_NOBITS || symbol->st_value < section->sh_addr
        || symbol->st_value - section->sh_addr > section->sh_size
        || section->sh_size - (symbol->st_value - section->sh_addr) < sizeof raw
        || section->sh_offset > UINT64_MAX - (symbol->st_value - section->sh_addr)) return -1;
    if (read_at(fd, &raw, sizeof raw, section->sh_offset + (symbol->st_value - section->sh_addr), file_size) != 0) return -1;
    *value = raw;
    return 0;
}

static int version_in_descriptor(int fd, unsigned versions[3]) {
#ifndef RK_ELF_MACHINE
    (void)fd; (void)versions;
    return -1;
#else
    static const char *const names[3] = {"rsvg_major_version", "rsvg_minor_version", "rsvg_micro_version"};
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) return -1;
    uint64_t file_size = (uint64_t)info.st_size;
    Elf64_Ehdr header;
    if (read_at(fd, &header, sizeof header, 0, file_size) != 0) return -1;
    if (memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64
        || header.e_ident[EI_DATA] != RK_ELF_DATA || header.e_type != ET_DYN || header.e_machine != RK_ELF_MACHINE
        || header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shnum == 0) return -1;
    unsigned count = header.e_shnum;
    Elf64_Shdr *sections = malloc(count * sizeof(Elf64_Shdr));
    if (!sections) return -1;
    int result = -1;
    Elf64_Sym *symbols = NULL;
    char *strings = NULL;
    if (read_at(fd, sections, count * sizeof(Elf64_Shdr), header.e_shoff, file_size) != 0) goto done;
    const Elf64_Shdr *table = NULL;
    for (unsigned i = 0; i < count; i++) {
        if (sections[i].sh_type == SHT_DYNSYM) { table = &sections[i]; break; }
    }
    if (!table || table->sh_entsize != sizeof(Elf64_Sym) || table->sh_link >= count
        || sections[table->sh_link].sh_type != SHT_STRTAB) goto done;
    const Elf64_Shdr *string_table = &sections[table->sh_link];
    symbols = read_section(fd, table, file_size);
    strings = read_section(fd, string_table, file_size);
    if (!symbols || !strings || strings[string_table->sh_size - 1] != '\0') goto done;
    int found = 0;
    for (uint64_t i = 0; i < table->sh_size / sizeof(Elf64_Sym) && found != 7; i++) {
        if (symbols[i].st_name >= string_table->sh_size) continue;
        const char *name = strings + symbols[i].st_name;
        for (int which = 0; which < 3; which++) {
            if (!(found & (1 << which)) && strcmp(name, names[which]) == 0) {
                if (read_guint(fd, &symbols[i], sections, count, file_size, &versions[which]) != 0) goto done;
                found |= 1 << which;
            }
        }
    }
    result = found == 7 ? 0 : -1;
done:
    free(symbols);
    free(strings);
    free(sections);
    return result;
#endif
}

int rk_rsvg_version_in_file(const char *path, unsigned *major, unsigned *minor, unsigned *micro) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    unsigned versions[3];
    int result = version_in_descriptor(fd, versions);
    close(fd);
    if (result == 0) {
        *major = versions[0];
        *minor = versions[1];
        *micro = versions[2];
    }
    return result;
}

// MARK: - Loading

// GDestroyNotify, in the calls' list.
typedef void (*rk_destroy_notify)(void *);
// Every call this file makes, as `call_<name>` (rsvg_calls.h, generated from librsvg's, GIO's and
// GLib's headers in the stable ABI, with GObjects as `void *`: no GLib header is a build
// dependency); and the version variables, which are data.
#include "rsvg_calls.h"
#define RK_RSVG_DATA(D) D(rsvg_major_version) D(rsvg_minor_version) D(rsvg_micro_version)
#define RK_DATA_INDEX(name) rk_index_##name,
#define RK_DATA_NAME(name) #name,

enum { RK_RSVG_OWN_CALLS(RK_LIBRARY_INDEX, RK_LIBRARY_VOID_INDEX) RK_RSVG_DATA(RK_DATA_INDEX) };
static const char *const names[] = {RK_RSVG_OWN_CALLS(RK_LIBRARY_NAME, RK_LIBRARY_VOID_NAME) RK_RSVG_DATA(RK_DATA_NAME)};
static void *symbols[sizeof names / sizeof names[0]];

static rk_library rsvg = RK_LIBRARY("librsvg", "librsvg-2.so.2", "librsvg 2.52 or later is needed (Debian's librsvg2-2)",
                                    names, symbols);

// The calls, as `call_<name>`: each forwards to the bound function (rk_rsvg_load first). They
// stay private: the functions this file exports wrap them, turning GErrors into messages.
RK_RSVG_OWN_CALLS(RK_LIBRARY_OWN_CALL, RK_LIBRARY_OWN_VOID_CALL)

// The version of the file the search found, read without loading it: keys are made with it
// before anything is drawn.
static char file_version[48];
static pthread_once_t file_once = PTHREAD_ONCE_INIT;

static void read_file_version(void) {
    const char *path = rk_library_path(&rsvg);
    unsigned major, minor, micro;
    if (path && rk_rsvg_version_in_file(path, &major, &minor, &micro) == 0) {
        snprintf(file_version, sizeof file_version, "%u.%u.%u", major, minor, micro);
    }
}

static char loaded_version[48];
static char changed_error[PATH_MAX + 256];
static pthread_once_t check_once = PTHREAD_ONCE_INIT;
static const char *load_error;

static void load_and_check(void) {
    pthread_once(&file_once, read_file_version);
    load_error = rk_library_load(&rsvg);
    if (load_error) return;
    snprintf(loaded_version, sizeof loaded_version, "%u.%u.%u", *(const unsigned *)symbols[rk_index_rsvg_major_version],
             *(const unsigned *)symbols[rk_index_rsvg_minor_version], *(const unsigned *)symbols[rk_index_rsvg_micro_version]);
    // Keys were made with the file's version; a library replaced since then must not draw under them.
    if (file_version[0] && strcmp(file_version, loaded_version) != 0) {
        const char *path = rk_library_path(&rsvg);
        snprintf(changed_error, sizeof changed_error, "librsvg at %s changed while this process ran (%s, now %s)",
                 path ? path : "librsvg-2.so.2", file_version, loaded_version);
        load_error = changed_error;
    }
}

const char *rk_rsvg_load(void) {
    pthread_once(&check_once, load_and_check);
    return load_error;
}

const char *rk_rsvg_loaded_version(void) {
    pthread_once(&check_once, load_and_check);
    return loaded_version[0] ? loaded_version : NULL;
}

const char *rk_rsvg_library_path(void) { return rk_library_path(&rsvg); }

const char *rk_rsvg_version(void) {
    pthread_once(&file_once, read_file_version);
    if (file_version[0]) return file_version;
    const char *version = rk_rsvg_loaded_version();
    return version ? version : "unavailable";
}

// MARK: - Calls

// GError's layout, stable across GLib 2.
typedef struct {
    uint32_t domain;
    int code;
    char *message;
} rk_gerror;

// The error's message, malloc'd (or NULL), with the error freed.
static char *take_message(void *error) {
    if (!error) return NULL;
    const char *text = ((rk_gerror *)error)->message;
    char *copy = text ? strdup(text) : NULL;
    call_g_error_free(error);
    return copy;
}

// The outcome of a call that reports failure through a GError: 1, or 0 with `*message` set to
// the error's message (an error left beside a success is freed).
static int outcome(int succeeded, void *error, char **message) {
    char *text = take_message(error);
    if (succeeded) {
        free(text);
        *message = NULL;
        return 1;
    }
    *message = text;
    return 0;
}

rk_rsvg_handle *rk_rsvg_parse(const void *bytes, size_t count, const char *base_file, char **message) {
    void *error = NULL;
    void *stream = call_g_memory_input_stream_new_from_data(bytes, (ssize_t)count, NULL);
    void *base = base_file ? call_g_file_new_for_path(base_file) : NULL;
    void *handle = call_rsvg_handle_new_from_stream_sync(stream, base, 0, NULL, &error);
    call_g_object_unref(stream);
    if (base) call_g_object_unref(base);
    outcome(handle != NULL, error, message);
    return handle;
}

void rk_rsvg_free(rk_rsvg_handle *handle) { call_g_object_unref(handle); }

void rk_rsvg_set_dpi(rk_rsvg_handle *handle, double dpi) { call_rsvg_handle_set_dpi(handle, dpi); }

int rk_rsvg_intrinsic_size_in_pixels(rk_rsvg_handle *handle, double *width, double *height) {
    return call_rsvg_handle_get_intrinsic_size_in_pixels(handle, width, height) != 0;
}

void rk_rsvg_intrinsic_dimensions(rk_rsvg_handle *handle, int *has_width, rk_rsvg_length *width,
                                  int *has_height, rk_rsvg_length *height, int *has_viewbox,
                                  rk_rsvg_rectangle *viewbox) {
    call_rsvg_handle_get_intrinsic_dimensions(handle, has_width, width, has_height, height, has_viewbox, viewbox);
}

int rk_rsvg_geometry(rk_rsvg_handle *handle, const rk_rsvg_rectangle *viewport, rk_rsvg_rectangle *ink,
                     rk_rsvg_rectangle *logical, char **message) {
    void *error = NULL;
    int succeeded = call_rsvg_handle_get_geometry_for_layer(handle, NULL, viewport, ink, logical, &error) != 0;
    return outcome(succeeded, error, message);
}

int rk_rsvg_render(rk_rsvg_handle *handle, void *cairo, const rk_rsvg_rectangle *viewport, char **message) {
    void *error = NULL;
    return outcome(call_rsvg_handle_render_document(handle, cairo, viewport, &error) != 0, error, message);
}
