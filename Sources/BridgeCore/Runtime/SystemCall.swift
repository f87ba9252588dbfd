// The system-call chokepoint (`SystemCall`, `SystemError`, swift-system's `Errno` and
// `FileDescriptor`) lives in the POSIX module, which GestureConfig uses too; BridgeCore's
// clients (X11Backend, the executable, the tests) keep reaching it through BridgeCore.
@_exported public import POSIX
