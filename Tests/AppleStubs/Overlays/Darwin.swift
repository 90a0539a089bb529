// Stub Swift overlay of the Darwin module, for Scripts/typecheck-apple.sh only: it re-exports the
// stub Clang module (Darwin/Darwin/Darwin.h) and adds the Swift declarations that Apple's Darwin
// overlay adds, transcribed from swiftlang/swift: stdlib/public/Platform/Platform.swift
// (sections "sys/errno.h", "fcntl.h" and "ioctl.h") and stdlib/public/Platform/TiocConstants.swift
// (the Darwin values). No body here ever runs.
@_exported import Darwin

/// `errno`, which C spells `(*__error())` on Darwin.
public var errno: Int32 {
  get { __error().pointee }
  set { __error().pointee = newValue }
}

/// `fcntl(2)`, variadic in C, so Swift declares its three shapes.
public func fcntl(_ fd: Int32, _ cmd: Int32) -> Int32 { fatalError("stub") }

/// `fcntl(2)` with an integer argument.
public func fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32 { fatalError("stub") }

/// `fcntl(2)` with a pointer argument.
public func fcntl(_ fd: Int32, _ cmd: Int32, _ ptr: UnsafeMutableRawPointer) -> Int32 { fatalError("stub") }

/// `ioctl(2)`, variadic in C, with a pointer argument.
public func ioctl(_ fd: CInt, _ request: UInt, _ ptr: UnsafeMutableRawPointer) -> CInt { fatalError("stub") }

/// `ioctl(2)` with an integer argument.
public func ioctl(_ fd: CInt, _ request: UInt, _ value: CInt) -> CInt { fatalError("stub") }

/// `ioctl(2)` with no argument.
public func ioctl(_ fd: CInt, _ request: UInt) -> CInt { fatalError("stub") }

/// Get window size: `_IOR('t', 104, struct winsize)`.
public var TIOCGWINSZ: UInt { 0x4008_7468 }
