#define _GNU_SOURCE
#include "CRsvgLoader.h"

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

static const char rsvg_soname[] = "librsvg-2.so.2";

#if defined(__x86_64__)
#define RK_ELF_MACHINE EM_X86_64
#define RK_MULTIARCH "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define RK_ELF_MACHINE EM_AARCH64
#define RK_MULTIARCH "aarch64-linux-gnu"
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

// MARK: - Which file

// The real path of librsvg-2.so.2 in the folders the dynamic loader searches on Debian and most
// other distributions (LD_LIBRARY_PATH first), or "" when none holds it; and its version.
static char library_path[PATH_MAX];
static char file_version[48];
static pthread_once_t file_once = PTHREAD_ONCE_INIT;

static int take_if_present(const char *folder, size_t length) {
    char candidate[PATH_MAX];
    struct stat info;
    if (length == 0 || length + sizeof rsvg_soname + 1 > sizeof candidate) return 0;
    snprintf(candidate, sizeof candidate, "%.*s/%s", (int)length, folder, rsvg_soname);
    if (stat(candidate, &info) != 0 || !S_ISREG(info.st_mode)) return 0;
    return realpath(candidate, library_path) != NULL;
}

static void find_library_file(void) {
    library_path[0] = '\0';
    int found = 0;
    const char *search = getenv("LD_LIBRARY_PATH");
    while (search && *search && !found) {
        size_t length = strcspn(search, ":;");
        found = take_if_present(search, length);
        search += length + (search[length] != '\0');
    }
    static const char *const folders[] = {
        "/usr/local/lib",
#ifdef RK_MULTIARCH
        "/usr/local/lib/" RK_MULTIARCH, "/lib/" RK_MULTIARCH, "/usr/lib/" RK_MULTIARCH,
#endif
        "/lib64", "/usr/lib64", "/lib", "/usr/lib",
    };
    for (size_t i = 0; i < sizeof folders / sizeof folders[0] && !found; i++) {
        found = take_if_present(folders[i], strlen(folders[i]));
    }
    if (!found) library_path[0] = '\0';
    unsigned major, minor, micro;
    if (found && rk_rsvg_version_in_file(library_path, &major, &minor, &micro) == 0) {
        snprintf(file_version, sizeof file_version, "%u.%u.%u", major, minor, micro);
    }
}

// MARK: - Loading

static struct {
    void *(*new_from_stream_sync)(void *stream, void *base_file, int flags, void *cancellable, void **error);
    void (*set_dpi)(void *handle, double dpi);
    int (*get_intrinsic_size_in_pixels)(void *handle, double *width, double *height);
    void (*get_intrinsic_dimensions)(void *handle, int *has_width, rk_rsvg_length *width, int *has_height,
                                     rk_rsvg_length *height, int *has_viewbox, rk_rsvg_rectangle *viewbox);
    int (*get_geometry_for_layer)(void *handle, const char *id, const rk_rsvg_rectangle *viewport,
                                  rk_rsvg_rectangle *ink, rk_rsvg_rectangle *logical, void **error);
    int (*render_document)(void *handle, void *cairo, const rk_rsvg_rectangle *viewport, void **error);
    void *(*memory_input_stream_new_from_data)(const void *data, ssize_t length, void (*destroy)(void *));
    void *(*file_new_for_path)(const char *path);
    void (*object_unref)(void *object);
    void (*error_free)(void *error);
} rsvg;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[PATH_MAX + 256];
static char loaded_version[48];
static int loaded;

// dlsym for a function, keeping the first missing name.
static void *symbol(void *library, const char *name, const char **missing) {
    void *address = dlsym(library, name);
    if (!address && !*missing) *missing = name;
    return address;
}

static void load_library(void) {
    pthread_once(&file_once, find_library_file);
    const char *path = library_path[0] ? library_path : rsvg_soname;
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "librsvg cannot be loaded: %s", reason ? reason : path);
        return;
    }
    const char *missing = NULL;
    *(void **)&rsvg.new_from_stream_sync = symbol(library, "rsvg_handle_new_from_stream_sync", &missing);
    *(void **)&rsvg.set_dpi = symbol(library, "rsvg_handle_set_dpi", &missing);
    *(void **)&rsvg.get_intrinsic_size_in_pixels = symbol(library, "rsvg_handle_get_intrinsic_size_in_pixels", &missing);
    *(void **)&rsvg.get_intrinsic_dimensions = symbol(library, "rsvg_handle_get_intrinsic_dimensions", &missing);
    *(void **)&rsvg.get_geometry_for_layer = symbol(library, "rsvg_handle_get_geometry_for_layer", &missing);
    *(void **)&rsvg.render_document = symbol(library, "rsvg_handle_render_document", &missing);
    *(void **)&rsvg.memory_input_stream_new_from_data = symbol(library, "g_memory_input_stream_new_from_data", &missing);
    *(void **)&rsvg.file_new_for_path = symbol(library, "g_file_new_for_path", &missing);
    *(void **)&rsvg.object_unref = symbol(library, "g_object_unref", &missing);
    *(void **)&rsvg.error_free = symbol(library, "g_error_free", &missing);
    const unsigned *major = symbol(library, "rsvg_major_version", &missing);
    const unsigned *minor = symbol(library, "rsvg_minor_version", &missing);
    const unsigned *micro = symbol(library, "rsvg_micro_version", &missing);
    if (missing) {
        snprintf(load_error, sizeof load_error, "librsvg at %s has no %s (librsvg 2.52 or later is needed)", path, missing);
        return;
    }
    snprintf(loaded_version, sizeof loaded_version, "%u.%u.%u", *major, *minor, *micro);
    // Keys were made with the file's version; a library replaced since then must not draw under them.
    if (file_version[0] && strcmp(file_version, loaded_version) != 0) {
        snprintf(load_error, sizeof load_error, "librsvg at %s changed while this process ran (%s, now %s)",
                 path, file_version, loaded_version);
        return;
    }
    loaded = 1;
}

const char *rk_rsvg_load(void) {
    pthread_once(&load_once, load_library);
    return loaded ? NULL : load_error;
}

const char *rk_rsvg_loaded_version(void) {
    pthread_once(&load_once, load_library);
    return loaded_version[0] ? loaded_version : NULL;
}

const char *rk_rsvg_library_path(void) {
    pthread_once(&file_once, find_library_file);
    return library_path[0] ? library_path : NULL;
}

const char *rk_rsvg_version(void) {
    pthread_once(&file_once, find_library_file);
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
    rsvg.error_free(error);
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
    void *stream = rsvg.memory_input_stream_new_from_data(bytes, (ssize_t)count, NULL);
    void *base = base_file ? rsvg.file_new_for_path(base_file) : NULL;
    void *handle = rsvg.new_from_stream_sync(stream, base, 0, NULL, &error);
    rsvg.object_unref(stream);
    if (base) rsvg.object_unref(base);
    outcome(handle != NULL, error, message);
    return handle;
}

void rk_rsvg_free(rk_rsvg_handle *handle) { rsvg.object_unref(handle); }

void rk_rsvg_set_dpi(rk_rsvg_handle *handle, double dpi) { rsvg.set_dpi(handle, dpi); }

int rk_rsvg_intrinsic_size_in_pixels(rk_rsvg_handle *handle, double *width, double *height) {
    return rsvg.get_intrinsic_size_in_pixels(handle, width, height) != 0;
}

void rk_rsvg_intrinsic_dimensions(rk_rsvg_handle *handle, int *has_width, rk_rsvg_length *width,
                                  int *has_height, rk_rsvg_length *height, int *has_viewbox,
                                  rk_rsvg_rectangle *viewbox) {
    rsvg.get_intrinsic_dimensions(handle, has_width, width, has_height, height, has_viewbox, viewbox);
}

int rk_rsvg_geometry(rk_rsvg_handle *handle, const rk_rsvg_rectangle *viewport, rk_rsvg_rectangle *ink,
                     rk_rsvg_rectangle *logical, char **message) {
    void *error = NULL;
    int succeeded = rsvg.get_geometry_for_layer(handle, NULL, viewport, ink, logical, &error) != 0;
    return outcome(succeeded, error, message);
}

int rk_rsvg_render(rk_rsvg_handle *handle, void *cairo, const rk_rsvg_rectangle *viewport, char **message) {
    void *error = NULL;
    return outcome(rsvg.render_document(handle, cairo, viewport, &error) != 0, error, message);
}
