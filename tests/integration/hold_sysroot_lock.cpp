// Holds the ostree sysroot lock as an update (bootc, rpm-ostree) does: takes
// it with libostree, creates the file named second to say so, and keeps it
// until its standard input closes. Usage: hold-sysroot-lock SYSROOT READY_FILE
#include <cstdio>
#include <ostree.h>

int main(int argc, char** argv) {
    if (argc != 3)
        return 2;
    g_autoptr(GFile) path = g_file_new_for_path(argv[1]);
    g_autoptr(OstreeSysroot) sysroot = ostree_sysroot_new(path);
    g_autoptr(GError) error = nullptr;
    if (!ostree_sysroot_lock(sysroot, &error)) {
        std::fprintf(stderr, "hold-sysroot-lock: %s\n", error->message);
        return 1;
    }
    if (FILE* ready = std::fopen(argv[2], "w"))
        std::fclose(ready);
    while (std::getchar() != EOF) {
    }
    ostree_sysroot_unlock(sysroot);
    return 0;
}
