// Headers only: see include/CLinux.h.
