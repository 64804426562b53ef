/* Test image only: the update service that fires at boot, as uupd,
 * rpm-ostreed-automatic and bootc-fetch-apply-updates do on Fedora Atomic.
 *
 *   vm-update-holder MAX_SECONDS [AFTER_WAIT_SECONDS]
 *
 * Takes the sysroot lock with ostree_sysroot_lock (blocking, as rpm-ostree
 * and bootc take it for a whole upgrade, download included) and holds it
 * until bootbench has said in this boot's journal that it waits for the
 * lock, then AFTER_WAIT_SECONDS more (default 10); at most MAX_SECONDS in
 * all. A fixed time missed bootbench on a busy machine (it reaches the lock
 * after its benches, 12 s to 60 s after the holder took it), and the night's
 * trap is that bootbench must wait. Then it releases the lock and exits 0;
 * the unit then stages a new deployment with `ostree admin deploy --stage`.
 * /sysroot is read-only for the system:
 * like the ostree CLI it takes a private mount namespace first. Stopping the
 * unit (SIGTERM, default action) ends it at once and the kernel drops the
 * lock with the file descriptor. Lines go to /dev/console for the harness. */
#include <ostree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Whether bootbench's unit said in this boot that the lock is taken (its
 * "is locked by another process; waiting" line). */
static int bootbench_waits(void)
{
  FILE *log = popen("journalctl -b -q -o cat -u bootbench-resume.service 2>/dev/null", "r");
  char line[1024];
  int seen = 0;
  if (log == NULL)
    return 0;
  while (fgets(line, sizeof line, log) != NULL)
    seen = seen || strstr(line, "is locked by another process") != NULL;
  pclose(log);
  return seen;
}

static long now_s(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long)t.tv_sec;
}

/* Holds until bootbench waits and after_wait seconds more, or max seconds
 * in all (the journal is read every 2 s: journalctl is slow under TCG). */
static void hold(long max, long after_wait)
{
  long end = now_s() + max;
  while (now_s() < end && !bootbench_waits())
    sleep(2);
  if (now_s() >= end)
    return;
  say("bootbench waits for the lock");
  if (now_s() + after_wait < end)
    end = now_s() + after_wait;
  while (now_s() < end)
    sleep(1);
}

int main(int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  long seconds = argc > 1 ? atol(argv[1]) : 90;
  long after_wait = argc > 2 ? atol(argv[2]) : 10;
  g_autoptr(OstreeSysroot) sysroot = ostree_sysroot_new_default();
  if (!ostree_sysroot_initialize_with_mount_namespace(sysroot, NULL, &error))
    return fail("mount namespace", error);
  say("waiting for the sysroot lock");
  if (!ostree_sysroot_lock(sysroot, &error))
    return fail("ostree_sysroot_lock", error);
  say("holding the sysroot lock");
  hold(seconds, after_wait);
  ostree_sysroot_unlock(sysroot);
  say("released the sysroot lock");
  return 0;
}
