import GestureTestKit

/// libFuzzer's entry point: checks one input (see `FuzzTarget.config`); a broken promise aborts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.config.fuzzOne(data, size)
}
