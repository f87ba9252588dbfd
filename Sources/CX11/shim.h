// The C boundary to the X server: Xlib, XInput2, XTest, MIT-SCREEN-SAVER and RandR; for the on-screen feedback
// SHAPE (input-transparent, shaped overlays), RENDER (anti-aliased lines), XFIXES (the compositor's selection
// followed) and Xft (text). The rest of Linux is CLinux.
// Swift imports these headers as they are; a shim goes here only for what it cannot, with its reason.
#ifndef GESTURE_BRIDGE_CX11_SHIM_H
#define GESTURE_BRIDGE_CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/XTest.h>
#include <X11/extensions/scrnsaver.h>
#include <X11/extensions/Xrandr.h>
#include <X11/extensions/shape.h>
#include <X11/extensions/Xrender.h>
#include <X11/extensions/Xfixes.h>
#include <X11/Xft/Xft.h>

#endif
