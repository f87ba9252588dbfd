import GestureTestKit

/// libFuzzer's entry point: checks one input (see `FuzzTarget.engine`); a broken promise aborts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEngine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.engine.fuzzOne(data, size)
}
