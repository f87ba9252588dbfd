/*
 * probe: drives right-button drags through XTest and times the key a bridge injects for them.
 *
 * Two connections: the driver presses button BUTTON, moves right in relative steps (the drag's
 * shape, below) at set times from the press, releases; the listener selects raw motion and raw
 * key presses on the root window (raw events reach it whatever grabs others hold). For each
 * drag the latency is CLOCK_MONOTONIC at the raw key press minus CLOCK_MONOTONIC at the raw
 * motion of the step that crossed the threshold (the first step at which the drag has gone
 * THRESHOLD px), both read by the listener as it receives them. Only slave-device raw events
 * count (one per event). A second latency ends at the same key but starts at the driver's
 * clock as it sends the crossing step (before its XFlush): what a hand's motion waits for its
 * key, the server included. The listener's read of the motion is not a fixed point: it moves
 * with the contender, which competes with the listener for the cores as the server delivers
 * the motion (beside a floor it came 14-38 us later than beside gesture-bridge, 400 drags a
 * shape: docs/performance.md, «From the send of the motion»), and a later read is a shorter
 * latency. The send comes before any contender can act. The listener is a thread of its own,
 * blocked in poll whatever the driver does, at real-time priority when the system allows it
 * (SCHED_FIFO; -N: not): on a loaded machine a listener that sends the step itself is often
 * preempted by the server it woke, and then reads the motion and the key together (a latency
 * of 0).
 *
 *   probe [-n DRAGS] [-b BUTTON] [-S SHAPE] [-t THRESHOLD_PX] [-W IDLE_MS] [-l LABEL] [-v] [-N | -K]
 *   probe [-n DRAGS] [-b BUTTON] -s STEPS -p STEP_PX [-c CROSSING_STEP] ...   an even drag:
 *                                    STEPS steps of STEP_PX, 3 ms apart
 *   probe -F EVENTS [-b BUTTON]      flood: EVENTS input events, untimed: fast drags of 98
 *                                    one-pixel steps (about 7 ms each), left and right in turn
 *
 * Shapes (-S; the pause is before each step, the first one after the press):
 *   five   5 steps of 20 px, 3 ms apart; the 4th crosses 80 px (the default)
 *   two    40 ms, 60 px; 8 ms, 90 px: two large steps, the second crosses
 *   fine   1 and 2 px in turn, 1 ms apart, to 100 px (a 1000 Hz mouse): the 54th crosses
 *   slow   50 steps of 2 px, 5 ms apart: crosses at the 40th, 200 ms in (0.4 px/ms, just
 *          above the 0.3 px/ms a swipe needs)
 *   next   five, but the press comes 2 ms after the previous drag's release (no pause
 *          between drags): a drag that starts right after the previous one
 * -K: the listener selects raw key presses only, as an ordinary thread, and each key is timed
 * from the send alone: a listener that wakes for the key and nothing else, as an application
 * does (it never reads the motions, so both latencies printed are from the send).
 * -W IDLE_MS waits that long without input before each press (default 20 ms): -W 61000 is the
 * first gesture after a minute without input, once gesture-bridge has let go of its pages.
 *
 * Prints one line: LABEL n=… miss=… early=… p50=… p90=… p99=… max=… sent-p50=… sent-p90=…
 * sent-p99=… (ms; sent-: from the step's send), and with -v every sample: LABEL DRAG LATENCY
 * SENT_LATENCY. Exit status 1 when a drag missed its key or the key came before the crossing step.
 * Build: cc -O2 probe.c -lX11 -lXi -lXtst -lm -lpthread
 */
#define _GNU_SOURCE
#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/XTest.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
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

/* What the listener thread received: slave raw motions and raw key presses, in order. */
enum { MAX_EVENTS = 1 << 20 };
static struct received { int key; double t; } *received;
static atomic_int n_received;

static void *listen_thread(void *arg) {
    Display *lis = arg;
    struct pollfd p = { ConnectionNumber(lis), POLLIN, 0 };
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
            int n = atomic_load(&n_received);
            if (!slave || n >= MAX_EVENTS) continue;
            received[n] = (struct received){ evtype == XI_RawKeyPress, t };
            atomic_store(&n_received, n + 1);
        }
        poll(&p, 1, -1);
        if (p.revents & POLLIN) XEventsQueued(lis, QueuedAfterReading);
    }
    return NULL;
}

/* Sleeps until `t` (ms, CLOCK_MONOTONIC). */
static void sleep_until(double t) {
    struct timespec ts = { (time_t)(t / 1e3), (long)((t - (time_t)(t / 1e3) * 1e3) * 1e6) };
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0) {}
}

/* The drag's times from received events `from` on: its crossing-th motion and the first key
 * after `from`; *early when that key came before the crossing motion. Waits up to 500 ms
 * for them. Returns 0 when one is missing. A crossing of 0 asks for the key alone. */
static int drag_times(int from, int crossing, double *t_motion, double *t_key, int *early) {
    double deadline = now_ms() + 500;
    for (;;) {
        int n = atomic_load(&n_received), motions = 0;
        *t_motion = *t_key = -1;
        *early = 0;
        for (int i = from; i < n; i++) {
            if (received[i].key) {
                if (*t_key < 0) { *t_key = received[i].t; if (*t_motion < 0) *early = 1; }
            } else if (++motions == crossing) {
                *t_motion = received[i].t;
            }
        }
        if ((crossing == 0 || *t_motion >= 0) && *t_key >= 0) return 1;
        if (now_ms() > deadline) return 0;
        usleep(1000);
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

/* A drag: its steps, each a pause (µs) before it and a distance (px) along x. */
enum { MAX_STEPS = 256 };
struct drag { int steps; int pause_us[MAX_STEPS]; int dx[MAX_STEPS]; };

/* The named shape's steps into *d, or 0 for an unknown name. */
static int shape_steps(const char *name, struct drag *d) {
    d->steps = 0;
    if (!strcmp(name, "five") || !strcmp(name, "next")) {
        for (int s = 0; s < 5; s++) { d->pause_us[s] = 3000; d->dx[s] = 20; }
        d->steps = 5;
    } else if (!strcmp(name, "two")) {
        d->pause_us[0] = 40000; d->dx[0] = 60;
        d->pause_us[1] = 8000; d->dx[1] = 90;
        d->steps = 2;
    } else if (!strcmp(name, "fine")) {
        for (int s = 0, x = 0; x < 100; s++) { d->pause_us[s] = 1000; d->dx[s] = 1 + s % 2; x += d->dx[s]; d->steps = s + 1; }
    } else if (!strcmp(name, "slow")) {
        for (int s = 0; s < 50; s++) { d->pause_us[s] = 5000; d->dx[s] = 2; }
        d->steps = 50;
    } else {
        return 0;
    }
    return 1;
}

int main(int argc, char **argv) {
    int drags = 200, button = 3, steps = 0, step_px = 20, crossing = 0, threshold = 80, idle_ms = 20, verbose = 0, realtime = 1,
        keys_only = 0, opt;
    long flood = 0;
    const char *label = "probe", *shape = "five";
    while ((opt = getopt(argc, argv, "n:b:s:p:c:t:S:W:l:vNKF:")) != -1) {
        switch (opt) {
        case 'n': drags = atoi(optarg); break;
        case 'b': button = atoi(optarg); break;
        case 's': steps = atoi(optarg); break;
        case 'p': step_px = atoi(optarg); break;
        case 'c': crossing = atoi(optarg); break;
        case 't': threshold = atoi(optarg); break;
        case 'S': shape = optarg; break;
        case 'W': idle_ms = atoi(optarg); break;
        case 'l': label = optarg; break;
        case 'v': verbose = 1; break;
        case 'N': realtime = 0; break;
        case 'K': keys_only = 1; realtime = 0; break;
        case 'F': flood = atol(optarg); break;
        default:
            fprintf(stderr, "usage: probe [-n DRAGS] [-b BUTTON] [-S five|two|fine|slow|next | -s STEPS -p STEP_PX [-c CROSSING_STEP]] "
                            "[-t THRESHOLD_PX] [-W IDLE_MS] [-l LABEL] [-v] [-N | -K]\n");
            return 64;
        }
    }
    struct drag drag;
    if (steps > 0) {
        if (steps > MAX_STEPS) steps = MAX_STEPS;
        for (int s = 0; s < steps; s++) { drag.pause_us[s] = 3000; drag.dx[s] = step_px; }
        drag.steps = steps;
    } else if (!shape_steps(shape, &drag)) {
        fprintf(stderr, "probe: no shape %s (five, two, fine, slow, next)\n", shape);
        return 64;
    }
    /* The step that crosses the threshold (1-based): given, or where the drag has gone far enough. */
    if (crossing <= 0) {
        for (int s = 0, x = 0; s < drag.steps && crossing <= 0; s++) { x += drag.dx[s]; if (x >= threshold) crossing = s + 1; }
        if (crossing <= 0) { fprintf(stderr, "probe: the drag never goes %d px\n", threshold); return 64; }
    }
    int back_to_back = !strcmp(shape, "next") && steps == 0;
    XInitThreads();
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
    if (!keys_only) XISetMask(bits, XI_RawMotion);
    XIEventMask mask = { XIAllDevices, sizeof bits, bits };
    XISelectEvents(lis, DefaultRootWindow(lis), &mask, 1);
    XSync(lis, False);

    received = calloc(MAX_EVENTS, sizeof *received);
    pthread_t listener;
    pthread_create(&listener, NULL, listen_thread, lis);
    if (realtime) {
        struct sched_param param = { .sched_priority = 10 };
        pthread_setschedparam(listener, SCHED_FIFO, &param); /* not allowed: an ordinary thread */
    }

    double *lat = calloc(drags, sizeof *lat), *lat_sent = calloc(drags, sizeof *lat_sent);
    int n = 0, miss = 0, early = 0;
    for (int d = 0; d < drags; d++) {
        XTestFakeMotionEvent(drv, -1, 200, 300 + (d % 5) * 40, CurrentTime);
        XSync(drv, False);
        if (back_to_back && d > 0) usleep(2000);
        else usleep(idle_ms * 1000);
        /* The move to the start is not part of the drag: its raw motion reached the listener
         * before the sync's reply, and the listener has had the pause to read it. */
        int from = atomic_load(&n_received);
        XTestFakeButtonEvent(drv, button, True, CurrentTime);
        XSync(drv, False);
        double at = now_ms(), t_sent = 0;
        for (int s = 0; s < drag.steps; s++) {
            /* At set times from the press: a late step does not delay the ones after it. */
            at += drag.pause_us[s] / 1e3;
            sleep_until(at);
            XTestFakeRelativeMotionEvent(drv, drag.dx[s], 0, CurrentTime);
            if (s + 1 == crossing) t_sent = now_ms();
            XFlush(drv);
        }
        XTestFakeButtonEvent(drv, button, False, CurrentTime);
        XSync(drv, False);
        double t_motion, t_key;
        int was_early;
        int got;
        if (keys_only) {
            /* Only keys were selected: the drag's first key after the press, timed from the send. */
            got = drag_times(from, 0, &t_motion, &t_key, &was_early);
            t_motion = t_sent;
            was_early = got && t_key < t_sent;
        } else {
            got = drag_times(from, crossing, &t_motion, &t_key, &was_early);
        }
        /* The action's release, the bridge's tail; none for a drag that follows at once. */
        if (!back_to_back) usleep(40000);
        if (!got) { miss++; continue; }
        if (was_early) { early++; continue; }
        lat_sent[n] = t_key - t_sent;
        lat[n++] = t_key - t_motion;
        if (verbose) printf("%s %d %.3f %.3f\n", label, d, t_key - t_motion, t_key - t_sent);
    }
    qsort(lat, n, sizeof *lat, cmp);
    qsort(lat_sent, n, sizeof *lat_sent, cmp);
    printf("%-16s n=%d miss=%d early=%d p50=%.3f p90=%.3f p99=%.3f max=%.3f sent-p50=%.3f sent-p90=%.3f sent-p99=%.3f ms\n", label, n,
           miss, early, pct(lat, n, 50), pct(lat, n, 90), pct(lat, n, 99), n ? lat[n - 1] : 0, pct(lat_sent, n, 50),
           pct(lat_sent, n, 90), pct(lat_sent, n, 99));
    return miss > 0 || early > 0;
}
