// swift-tools-version:6.2
import PackageDescription

let package = Package(
  name: "ClosureKitBenchmarks",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [.package(name: "ClosureKit", path: "..")],
  targets: [
    .executableTarget(
      name: "closurekit-bench",
      dependencies: [
        .product(name: "ClosureKit", package: "ClosureKit"),
        .product(name: "ClosureKitFoundation", package: "ClosureKit"),
        .product(name: "ClosureKitTesting", package: "ClosureKit"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
