// Linux interfaces that Swift's Glibc module does not bring in (no X here: that is CX11).
#ifndef GESTURE_BRIDGE_CLINUX_H
#define GESTURE_BRIDGE_CLINUX_H

// signalfd(2) and struct signalfd_siginfo: the header is not part of Glibc's module map.
#include <sys/signalfd.h>

#endif
