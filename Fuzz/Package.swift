// swift-tools-version:6.2
// The libFuzzer targets: ClosureKit's XML parser and the terminal presenter's input. A package of
// its own, so that its sanitizer flags never reach ClosureKit's manifest. Build and run them with
// Scripts/fuzz-xml.sh and Scripts/fuzz-terminal.sh.
import PackageDescription

let package = Package(
  name: "ClosureKitFuzz",
  dependencies: [.package(name: "ClosureKit", path: "..")],
  targets: [
    // libxml2 itself, for the oracle: libxml2's own verdict on each input.
    .systemLibrary(name: "CFuzzLibXML2", pkgConfig: "libxml-2.0"),
    // libFuzzer's driver, which each target's entry point calls.
    .systemLibrary(name: "CFuzzDriver"),
    .executableTarget(
      name: "fuzz-xml",
      dependencies: [.product(name: "ClosureKitFoundation", package: "ClosureKit"), "CFuzzLibXML2", "CFuzzDriver"]
    ),
    .executableTarget(
      name: "fuzz-terminal",
      dependencies: [
        .product(name: "ClosureKit", package: "ClosureKit"),
        .product(name: "ClosureKitFoundation", package: "ClosureKit"),
        "CFuzzDriver",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
