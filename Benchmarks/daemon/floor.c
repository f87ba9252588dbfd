/*
 * floor: the least a compiled gesture bridge can do, as a benchmark fixture.
 *
 * Grabs a mouse button on the root window with an XI2 passive grab, follows the pointer
 * motion of the press, and the moment the drag has travelled THRESHOLD px along x it
 * injects a key (press and release) with XTest and flushes. No config, no recognizer, no
 * logging: what is left is the X round trip itself. Everything is resolved before `ready`.
 *
 *   floor [-b BUTTON] [-t THRESHOLD_PX] [-k KEYSYM]        inject KEYSYM through XTest
 *   floor [-b BUTTON] [-t THRESHOLD_PX] -s PROGRAM ARG...  spawn a program instead (what
 *                                                          bridges that shell out per action do,
 *                                                          e.g. -s xdotool key F12)
 *   floor -S ...                                           a synchronous grab, as gesture-bridge
 *                                                          takes it (so that a press no gesture
 *                                                          wants can be replayed to the
 *                                                          application): the pointer freezes at
 *                                                          the press, the drag is followed by the
 *                                                          raw motion of the slave device, and
 *                                                          XIAllowEvents thaws it after the key
 *   floor -w MICROSECONDS ...                              with -S or -r: spin that long on each
 *                                                          raw motion of the press that does not
 *                                                          cross, as if it had a daemon's work to
 *                                                          do (what that time costs the next key:
 *                                                          docs/performance.md, «Quiet turns»)
 *   floor -r ...                                           the asynchronous grab, but the drag
 *                                                          followed by raw motion (which the
 *                                                          server sends before the grab's own
 *                                                          motion event): the fastest a bridge
 *                                                          that cannot give a press back can be
 *
 * Prints "ready" on stderr once the grab is taken. Build: cc -O2 floor.c -lX11 -lXi -lXtst
 */
#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/XTest.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static void usage(void) {
    fprintf(stderr, "usage: floor [-S | -r] [-w MICROSECONDS] [-b BUTTON] [-t PX] [-k KEYSYM | -s PROGRAM ARG...]\n");
    exit(64);
}

int main(int argc, char **argv) {
    int button = 3, threshold = 80, sync = 0, raw = 0, opt;
    long work_us = 0;
    const char *keyname = "F12";
    char **spawn_argv = NULL;
    while ((opt = getopt(argc, argv, "+b:t:k:w:sSr")) != -1) {
        switch (opt) {
        case 'b': button = atoi(optarg); break;
        case 't': threshold = atoi(optarg); break;
        case 'k': keyname = optarg; break;
        case 's': spawn_argv = argv + optind; break;
        case 'S': sync = 1; raw = 1; break;
        case 'r': raw = 1; break;
        case 'w': work_us = atol(optarg); break;
        default: usage();
        }
        if (spawn_argv) break;
    }
    if (spawn_argv && !spawn_argv[0]) usage();
    signal(SIGCHLD, SIG_IGN); /* spawned children are reaped by the kernel */

    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) { fprintf(stderr, "floor: cannot open display\n"); return 1; }
    int xi_opcode, ev, err, major = 2, minor = 2;
    if (!XQueryExtension(dpy, "XInputExtension", &xi_opcode, &ev, &err) ||
        XIQueryVersion(dpy, &major, &minor) != Success) {
        fprintf(stderr, "floor: no XInput 2.2\n"); return 1;
    }
    KeyCode keycode = 0;
    if (!spawn_argv) {
        KeySym sym = XStringToKeysym(keyname);
        keycode = sym == NoSymbol ? 0 : XKeysymToKeycode(dpy, sym);
        if (!keycode) { fprintf(stderr, "floor: %s is not on the keyboard\n", keyname); return 1; }
    }

    Window root = DefaultRootWindow(dpy);
    unsigned char bits[XIMaskLen(XI_LASTEVENT)] = {0};
    XISetMask(bits, XI_ButtonPress);
    XISetMask(bits, XI_ButtonRelease);
    XISetMask(bits, XI_Motion);
    XIEventMask mask = { XIAllMasterDevices, sizeof bits, bits };
    XIGrabModifiers any = { XIAnyModifier, 0 };
    if (raw) {
        unsigned char rawbits[XIMaskLen(XI_LASTEVENT)] = {0};
        XISetMask(rawbits, XI_RawMotion);
        XISetMask(rawbits, XI_RawButtonRelease);
        XIEventMask rawmask = { XIAllDevices, sizeof rawbits, rawbits };
        XISelectEvents(dpy, root, &rawmask, 1);
    }
    if (XIGrabButton(dpy, XIAllMasterDevices, button, root, None, sync ? XIGrabModeSync : XIGrabModeAsync, XIGrabModeAsync,
                     False, &mask, 1, &any) != 0) {
        fprintf(stderr, "floor: cannot grab button %d\n", button); return 1;
    }
    XSync(dpy, False);
    fprintf(stderr, "floor: ready\n");

    double start_x = 0, raw_dx = 0;
    int down = 0, fired = 0, master = 0, source = 0;
    for (;;) {
        XEvent e;
        XNextEvent(dpy, &e);
        if (e.xcookie.type != GenericEvent || e.xcookie.extension != xi_opcode) continue;
        if (!XGetEventData(dpy, &e.xcookie)) continue;
        XIDeviceEvent *d = e.xcookie.data;
        switch (e.xcookie.evtype) {
        case XI_ButtonPress:
            if (d->detail == button) { down = 1; fired = 0; start_x = d->root_x; raw_dx = 0; master = d->deviceid; source = d->sourceid; }
            break;
        case XI_RawMotion: {
            XIRawEvent *r = e.xcookie.data;
            if (!raw || !down || fired || r->deviceid != source || !XIMaskIsSet(r->valuators.mask, 0)) break;
            raw_dx += r->raw_values[0];
            if (work_us > 0 && raw_dx < threshold && -raw_dx < threshold) {
                struct timespec from, now;
                clock_gettime(CLOCK_MONOTONIC, &from);
                do clock_gettime(CLOCK_MONOTONIC, &now);
                while ((now.tv_sec - from.tv_sec) * 1000000L + (now.tv_nsec - from.tv_nsec) / 1000 < work_us);
            }
            if (raw_dx >= threshold || -raw_dx >= threshold) {
                fired = 1;
                /* The key before the thaw, as gesture-bridge sends it: a thaw first makes the
                 * server replay the frozen events before it reads the key. */
                XTestFakeKeyEvent(dpy, keycode, True, CurrentTime);
                XTestFakeKeyEvent(dpy, keycode, False, CurrentTime);
                if (sync) XIAllowEvents(dpy, master, XIAsyncDevice, CurrentTime);
                XFlush(dpy);
            }
            break;
        }
        case XI_RawButtonRelease: {
            XIRawEvent *r = e.xcookie.data;
            /* A press that made no drag: the application gets it back. */
            if (sync && down && !fired && r->deviceid == source && r->detail == button) {
                XIAllowEvents(dpy, master, XIReplayDevice, CurrentTime);
                XFlush(dpy);
                down = 0;
            }
            break;
        }
        case XI_Motion:
            if (!raw && down && !fired && (d->root_x - start_x >= threshold || start_x - d->root_x >= threshold)) {
                fired = 1;
                if (spawn_argv) {
                    pid_t pid;
                    posix_spawnp(&pid, spawn_argv[0], NULL, NULL, spawn_argv, environ);
                } else {
                    XTestFakeKeyEvent(dpy, keycode, True, CurrentTime);
                    XTestFakeKeyEvent(dpy, keycode, False, CurrentTime);
                    XFlush(dpy);
                }
            }
            break;
        case XI_ButtonRelease:
            if (d->detail == button) down = 0;
            break;
        }
        XFreeEventData(dpy, &e.xcookie);
    }
}
