// swift-tools-version:6.2
// The libFuzzer target for ClosureKit's XML parser: a package of its own, so that its sanitizer
// flags never reach ClosureKit's manifest. Build and run it with Scripts/fuzz-xml.sh.
import PackageDescription

let package = Package(
  name: "ClosureKitFuzz",
  dependencies: [.package(name: "ClosureKit", path: "..")],
  targets: [
    // libxml2 itself, for the oracle: libxml2's own verdict on each input.
    .systemLibrary(name: "CFuzzLibXML2", pkgConfig: "libxml-2.0"),
    .executableTarget(
      name: "fuzz-xml",
      dependencies: [.product(name: "ClosureKitFoundation", package: "ClosureKit"), "CFuzzLibXML2"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
