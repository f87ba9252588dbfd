// The one C boundary of gesture-bridge: Xlib, XInput2 and XTest.
// Only what Swift cannot import directly gets a shim here, each with its reason.
#ifndef GESTURE_BRIDGE_CX11_SHIM_H
#define GESTURE_BRIDGE_CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/XTest.h>

#endif
