/* A disk that loses power: every file under $POWERCUT_DIR is copied, as it stands, to "<file>.synced" each time
 * the program fsyncs it; what was written and never fsynced is not in any copy. The copies are what a kernel
 * leaves on disk when the power goes: the game log's database and its write-ahead log each as at their last
 * fsync. A file never fsynced has no copy: it is lost, as a new file whose data never reached the disk is. A file
 * deleted loses its copy only once the directory is fsynced: until then the deletion may not have reached the
 * disk, and a rollback journal that comes back after a power cut is played back over the database.
 * Loaded with LD_PRELOAD, it sits between SQLite and the C library, where Python cannot. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int watched(const char *path) {
    const char *dir = getenv("POWERCUT_DIR");
    size_t prefix = dir == NULL ? 0 : strlen(dir);
    return dir != NULL && strncmp(path, dir, prefix) == 0 && path[prefix] == '/' && strstr(path, ".synced") == NULL;
}

#define PENDING 64
static char pending[PENDING][4200];
static int deleted;

static int (*real_unlink)(const char *);

static void forget_deleted(void) {
    for (int k = 0; k < deleted; k++) real_unlink(pending[k]);
    deleted = 0;
}

static void keep(int fd) {
    char link[64], path[4096], copy[4200], part[4200], buffer[65536];
    struct stat info;
    if (fstat(fd, &info) != 0) return;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, path, sizeof path - 1);
    if (length < 0) return;
    path[length] = '\0';
    if (S_ISDIR(info.st_mode)) {
        const char *dir = getenv("POWERCUT_DIR");
        if (dir != NULL && strcmp(path, dir) == 0) forget_deleted();
        return;
    }
    if (!S_ISREG(info.st_mode)) return;
    if (!watched(path)) return;
    snprintf(copy, sizeof copy, "%s.synced", path);
    snprintf(part, sizeof part, "%s.synced.part", path);
    int out = open(part, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out < 0) return;
    off_t at = 0;
    ssize_t got;
    while ((got = pread(fd, buffer, sizeof buffer, at)) > 0) {
        if (write(out, buffer, (size_t)got) != got) break;
        at += got;
    }
    close(out);
    rename(part, copy);
}

typedef int (*Sync)(int);

/* The C library's own ``name`` (looked up once into ``real``) on ``fd``, and the file kept if it succeeded. */
static int synced(Sync *real, const char *name, int fd) {
    if (*real == NULL) *real = (Sync)dlsym(RTLD_NEXT, name);
    int result = (*real)(fd);
    if (result == 0) keep(fd);
    return result;
}

int fsync(int fd) {
    static Sync real;
    return synced(&real, "fsync", fd);
}

int fdatasync(int fd) {
    static Sync real;
    return synced(&real, "fdatasync", fd);
}

int unlink(const char *path) {
    if (real_unlink == NULL) real_unlink = (int (*)(const char *))dlsym(RTLD_NEXT, "unlink");
    int result = real_unlink(path);
    if (result == 0 && watched(path) && deleted < PENDING) {
        snprintf(pending[deleted++], sizeof pending[0], "%s.synced", path);
    }
    return result;
}
