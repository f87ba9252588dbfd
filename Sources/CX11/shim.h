// The one C boundary of gesture-bridge: Xlib, XInput2 and XTest.
// Only what Swift cannot import directly gets a shim here, each with its reason.
#ifndef GESTURE_BRIDGE_CX11_SHIM_H
#define GESTURE_BRIDGE_CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/XTest.h>

// POSIX_SPAWN_SETSID (glibc >= 2.26, for `exec` children) hides behind _GNU_SOURCE, which Swift's Glibc module lacks.
static const short GB_POSIX_SPAWN_SETSID = 0x80;

#endif
