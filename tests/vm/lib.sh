# Shared helpers for the VM test scripts (sourced, not run).

vm_log() { printf '[vm %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
vm_die() { printf '[vm %s] ERROR: %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; exit 1; }

# Seconds since the epoch with a fraction, for the timings we record.
vm_now() { date +%s.%N; }
vm_elapsed() { awk -v a="$1" -v b="$(vm_now)" 'BEGIN { printf "%.1f", b - a }'; }

# Deployment roots are immutable (chattr +i): rm -rf fails on them.
vm_remove_tree() {
  local dir=$1
  [ -e "$dir" ] || return 0
  find "$dir" -xdev -maxdepth 8 -type d -path '*/ostree/deploy/*/deploy/*' -prune \
    -exec chattr -i {} + 2>/dev/null || true
  rm -rf --one-file-system "$dir"
}
