#include "CDynamicLibrary.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#if defined(__x86_64__)
#define RK_MULTIARCH "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define RK_MULTIARCH "aarch64-linux-gnu"
#endif

// Sets `library->path` to the real path of `folder`/soname when that is a regular file.
static int take_if_present(rk_library *library, const char *folder, size_t length) {
    char candidate[PATH_MAX];
    struct stat info;
    size_t soname_length = strlen(library->soname);
    if (length == 0 || length + soname_length + 2 > sizeof candidate) return 0;
    snprintf(candidate, sizeof candidate, "%.*s/%s", (int)length, folder, library->soname);
    if (stat(candidate, &info) != 0 || !S_ISREG(info.st_mode)) return 0;
    return realpath(candidate, library->path) != NULL;
}

// Called with the lock held.
static void search(rk_library *library) {
    if (__atomic_load_n(&library->searched, __ATOMIC_ACQUIRE)) return;
    library->path[0] = '\0';
    int found = 0;
    const char *folders = getenv("LD_LIBRARY_PATH");
    while (folders && *folders && !found) {
        size_t length = strcspn(folders, ":;");
        found = take_if_present(library, folders, length);
        folders += length + (folders[length] != '\0');
    }
    static const char *const standard[] = {
        "/usr/local/lib",
#ifdef RK_MULTIARCH
        "/usr/local/lib/" RK_MULTIARCH, "/lib/" RK_MULTIARCH, "/usr/lib/" RK_MULTIARCH,
#endif
        "/lib64", "/usr/lib64", "/lib", "/usr/lib",
    };
    for (size_t i = 0; i < sizeof standard / sizeof standard[0] && !found; i++) {
        found = take_if_present(library, standard[i], strlen(standard[i]));
    }
    if (!found) library->path[0] = '\0';
    __atomic_store_n(&library->searched, 1, __ATOMIC_RELEASE);
}

const char *rk_library_path(rk_library *library) {
    if (!__atomic_load_n(&library->searched, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&library->lock);
        search(library);
        pthread_mutex_unlock(&library->lock);
    }
    return library->path[0] ? library->path : NULL;
}

// Called with the lock held, once.
static int load(rk_library *library) {
    search(library);
    const char *file = library->path[0] ? library->path : library->soname;
    void *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(library->error, sizeof library->error, "%s cannot be loaded: %s; %s", library->display_name,
                 reason ? reason : file, library->requirement);
        return -1;
    }
    // Every symbol is looked up (a library's handle also searches what it depends on); the first
    // one missing is named.
    for (size_t i = 0; i < library->count; i++) {
        library->symbols[i] = dlsym(handle, library->names[i]);
        if (!library->symbols[i]) {
            snprintf(library->error, sizeof library->error, "%s at %s has no %s; %s", library->display_name, file,
                     library->names[i], library->requirement);
            return -1;
        }
    }
    return 1;
}

const char *rk_library_load(rk_library *library) {
    int state = __atomic_load_n(&library->state, __ATOMIC_ACQUIRE);
    if (state == 0) {
        pthread_mutex_lock(&library->lock);
        state = library->state;
        if (state == 0) {
            state = load(library);
            __atomic_store_n(&library->state, state, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&library->lock);
    }
    return state == 1 ? NULL : library->error;
}
