/*
 * probe: drives right-button drags through XTest and times the key a bridge injects for them.
 *
 * Two connections: the driver presses button BUTTON, moves right in STEPS relative steps of
 * STEP px (a few ms apart, so the drag is a fast swipe), releases; the listener selects raw
 * motion and raw key presses on the root window (raw events reach it whatever grabs others
 * hold). For each drag the latency is CLOCK_MONOTONIC at the raw key press minus
 * CLOCK_MONOTONIC at the raw motion of the step that crossed the threshold, both read by the
 * listener as it receives them. Only slave-device raw events count (one per event).
 *
 *   probe [-n DRAGS] [-b BUTTON] [-s STEPS] [-p STEP_PX] [-c CROSSING_STEP] [-l LABEL]
 *   probe -F EVENTS [-b BUTTON]      flood: EVENTS input events, untimed: fast drags of 98
 *                                    one-pixel steps (about 7 ms each), left and right in turn
 *
 * Prints one line: LABEL n=… miss=… p50=… p90=… p99=… max=… (ms), and with -v every sample.
 * Build: cc -O2 probe.c -lX11 -lXi -lXtst -lm
 */
#define _GNU_SOURCE
#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/XTest.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int xi_opcode;

/* Waits for the next slave raw event of `type` on the listener until `deadline` (ms);
 * returns its receipt time or -1. Other events are dropped; a key press is counted in *keys. */
static double wait_raw(Display *lis, int type, double deadline, int *keys) {
    for (;;) {
        while (XPending(lis)) {
            XEvent e;
            XNextEvent(lis, &e);
            double t = now_ms();
            if (e.xcookie.type != GenericEvent || e.xcookie.extension != xi_opcode) continue;
            if (!XGetEventData(lis, &e.xcookie)) continue;
            XIRawEvent *r = e.xcookie.data;
            int evtype = e.xcookie.evtype, slave = r->deviceid == r->sourceid;
            XFreeEventData(lis, &e.xcookie);
            if (!slave) continue;
            if (evtype == XI_RawKeyPress && keys) (*keys)++;
            if (evtype == type) return t;
        }
        double left = deadline - now_ms();
        if (left <= 0) return -1;
        struct pollfd p = { ConnectionNumber(lis), POLLIN, 0 };
        poll(&p, 1, (int)left + 1);
        if (p.revents & POLLIN) XEventsQueued(lis, QueuedAfterReading);
    }
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(const double *v, int n, double p) {
    if (n == 0) return 0;
    int i = (int)(p / 100.0 * n + 0.5) - 1;
    if (i < 0) i = 0;
    if (i >= n) i = n - 1;
    return v[i];
}

int main(int argc, char **argv) {
    int drags = 200, button = 3, steps = 5, step_px = 20, crossing = 4, verbose = 0, opt;
    long flood = 0;
    const char *label = "probe";
    while ((opt = getopt(argc, argv, "n:b:s:p:c:l:vF:")) != -1) {
        switch (opt) {
        case 'n': drags = atoi(optarg); break;
        case 'b': button = atoi(optarg); break;
        case 's': steps = atoi(optarg); break;
        case 'p': step_px = atoi(optarg); break;
        case 'c': crossing = atoi(optarg); break;
        case 'l': label = optarg; break;
        case 'v': verbose = 1; break;
        case 'F': flood = atol(optarg); break;
        default: fprintf(stderr, "usage: probe [-n DRAGS] [-b BUTTON] [-s STEPS] [-p STEP_PX] [-c CROSSING_STEP] [-l LABEL] [-v]\n"); return 64;
        }
    }
    Display *drv = XOpenDisplay(NULL), *lis = XOpenDisplay(NULL);
    if (flood > 0 && drv) {
        long sent = 0;
        for (int d = 0; sent < flood; d++) {
            int dir = d % 2 ? -1 : 1;
            XTestFakeMotionEvent(drv, -1, dir > 0 ? 300 : 900, 300 + (d % 5) * 40, CurrentTime);
            XTestFakeButtonEvent(drv, button, True, CurrentTime);
            /* As a hand would, a moment before the drag starts: the bridge follows a press
             * by the raw motion it selects once it has seen the press. */
            XSync(drv, False);
            usleep(3000);
            for (int s = 0; s < 98; s++) {
                XTestFakeRelativeMotionEvent(drv, dir, 0, CurrentTime);
                /* A millisecond now and then: the drag has a duration, and so a speed. */
                if (s % 25 == 24) { XFlush(drv); usleep(1000); }
            }
            XTestFakeButtonEvent(drv, button, False, CurrentTime);
            XSync(drv, False);
            sent += 100;
        }
        printf("flood: %ld events\n", sent);
        return 0;
    }
    if (!drv || !lis) { fprintf(stderr, "probe: cannot open display\n"); return 1; }
    int ev, err, major = 2, minor = 2;
    if (!XQueryExtension(lis, "XInputExtension", &xi_opcode, &ev, &err) || XIQueryVersion(lis, &major, &minor) != Success) {
        fprintf(stderr, "probe: no XInput 2.2\n"); return 1;
    }
    unsigned char bits[XIMaskLen(XI_LASTEVENT)] = {0};
    XISetMask(bits, XI_RawKeyPress);
    XISetMask(bits, XI_RawMotion);
    XIEventMask mask = { XIAllDevices, sizeof bits, bits };
    XISelectEvents(lis, DefaultRootWindow(lis), &mask, 1);
    XSync(lis, False);

    double *lat = calloc(drags, sizeof *lat);
    int n = 0, miss = 0, early = 0;
    for (int d = 0; d < drags; d++) {
        XTestFakeMotionEvent(drv, -1, 200, 300 + (d % 5) * 40, CurrentTime);
        XSync(drv, False);
        usleep(20000);
        XTestFakeButtonEvent(drv, button, True, CurrentTime);
        XSync(drv, False);
        usleep(3000);
        int keys = 0;
        double t_motion = -1, t_key = -1;
        for (int s = 1; s <= steps; s++) {
            XTestFakeRelativeMotionEvent(drv, step_px, 0, CurrentTime);
            XFlush(drv);
            if (s == crossing) {
                int before = keys;
                t_motion = wait_raw(lis, XI_RawMotion, now_ms() + 500, &keys);
                if (keys > before) early++;
                t_key = wait_raw(lis, XI_RawKeyPress, now_ms() + 500, NULL);
            } else {
                wait_raw(lis, XI_RawMotion, now_ms() + 500, &keys);
                usleep(3000);
            }
        }
        XTestFakeButtonEvent(drv, button, False, CurrentTime);
        XSync(drv, False);
        usleep(40000);                       /* the action's release, the bridge's tail */
        while (XPending(lis)) { XEvent e; XNextEvent(lis, &e); }
        if (t_motion < 0 || t_key < 0) { miss++; continue; }
        lat[n++] = t_key - t_motion;
        if (verbose) printf("%s %d %.3f\n", label, d, t_key - t_motion);
    }
    qsort(lat, n, sizeof *lat, cmp);
    printf("%-16s n=%d miss=%d early=%d p50=%.3f p90=%.3f p99=%.3f max=%.3f ms\n", label, n, miss, early,
           pct(lat, n, 50), pct(lat, n, 90), pct(lat, n, 99), n ? lat[n - 1] : 0);
    return miss > 0 || early > 0;
}
