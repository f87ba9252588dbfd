# Sourced by the daemon benchmarks: builds floor.c and probe.c into a scratch directory
# ($work), starts Xvfb on a free display (off the network) and openbox with a bare rc file, and
# stops them on exit. Needs $here (this folder).
work=$(mktemp -d /tmp/gb-bench.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

cc -O2 -o "$work/floor" "$here/floor.c" -lX11 -lXi -lXtst
cc -O2 -o "$work/probe" "$here/probe.c" -lX11 -lXi -lXtst -lpthread

# A free display: no socket and no lock file for it yet.
n=40
while [ -e /tmp/.X11-unix/X$n ] || [ -e /tmp/.X$n-lock ]; do n=$((n + 1)); done
export DISPLAY=:$n
Xvfb "$DISPLAY" -screen 0 1280x800x24 -nolisten tcp -s 0 >"$work/xvfb.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.05; done

cat >"$work/openbox.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<openbox_config xmlns="http://openbox.org/3.4/rc">
  <desktops><number>4</number></desktops>
  <keyboard></keyboard>
  <mouse></mouse>
</openbox_config>
XML
openbox --config-file "$work/openbox.xml" >"$work/openbox.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q window && break; sleep 0.05; done

