/* Test image only: the update service that fires at boot, as uupd,
 * rpm-ostreed-automatic and bootc-fetch-apply-updates do on Fedora Atomic.
 *
 *   vm-update-holder SECONDS
 *
 * Takes the sysroot lock with ostree_sysroot_lock (blocking, as rpm-ostree
 * and bootc take it for a whole upgrade, download included), holds it for
 * SECONDS, releases it and exits 0; the unit then stages a new deployment
 * with `ostree admin deploy --stage`. /sysroot is read-only for the system:
 * like the ostree CLI it takes a private mount namespace first. Stopping the
 * unit (SIGTERM, default action) ends it at once and the kernel drops the
 * lock with the file descriptor. Lines go to /dev/console for the harness. */
#include <ostree.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void say(const char *what)
{
  FILE *console = fopen("/dev/console", "w");
  struct timespec up;
  clock_gettime(CLOCK_BOOTTIME, &up);
  if (console == NULL)
    console = stderr;
  fprintf(console, "BOOTBENCH-VM update: %s (uptime %ld s)\n", what, (long)up.tv_sec);
  fflush(console);
  if (console != stderr)
    fclose(console);
}

static int fail(const char *what, GError *error)
{
  char line[512];
  snprintf(line, sizeof line, "%s FAILED: %s", what, error ? error->message : "?");
  say(line);
  return 1;
}

int main(int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  int seconds = argc > 1 ? atoi(argv[1]) : 60;
  g_autoptr(OstreeSysroot) sysroot = ostree_sysroot_new_default();
  if (!ostree_sysroot_initialize_with_mount_namespace(sysroot, NULL, &error))
    return fail("mount namespace", error);
  say("waiting for the sysroot lock");
  if (!ostree_sysroot_lock(sysroot, &error))
    return fail("ostree_sysroot_lock", error);
  say("holding the sysroot lock");
  sleep((unsigned)seconds);
  ostree_sysroot_unlock(sysroot);
  say("released the sysroot lock");
  return 0;
}
