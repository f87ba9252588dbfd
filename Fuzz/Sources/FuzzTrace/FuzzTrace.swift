import GestureTestKit

/// libFuzzer's entry point: checks one input (see `FuzzTarget.trace`); a broken promise aborts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrace(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.trace.fuzzOne(data, size)
}
