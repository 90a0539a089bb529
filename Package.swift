// swift-tools-version:6.2
import PackageDescription

let package = Package(
  name: "ClosureKit",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "ClosureKit", targets: ["ClosureKit"]),
    .library(name: "ClosureKitFoundation", targets: ["ClosureKitFoundation"]),
    .library(name: "ClosureKitTesting", targets: ["ClosureKitTesting"]),
    .library(name: "ClosureKitUIKit", targets: ["ClosureKitUIKit"]),
    .library(name: "ClosureKitSwiftUI", targets: ["ClosureKitSwiftUI"]),
    .executable(name: "closurekit-demo", targets: ["closurekit-demo"]),
  ],
  targets: [
    // The registry's map for maintainers sits beside its code; it is not a resource.
    .target(name: "ClosureKit", exclude: ["Events/Internal/README.md"]),
    .target(
      name: "ClosureKitFoundation",
      dependencies: ["ClosureKit", .target(name: "CLibXML2", condition: .when(platforms: [.linux]))]
    ),
    // The system libxml2, which the XML SAX driver uses on Linux (Apple platforms use XMLParser).
    .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
    .target(name: "ClosureKitTesting", dependencies: ["ClosureKit"]),
    .target(name: "ClosureKitUIKit", dependencies: ["ClosureKit"]),
    // Combine and SwiftUI bridges: the bridges compile on Apple platforms only; their demand,
    // buffering and dialog logic is plain Swift, built and tested everywhere.
    .target(name: "ClosureKitSwiftUI", dependencies: ["ClosureKit"]),
    // The loopback HTTP/1.1 server the network tests, the demo and feedwatch start; not a product.
    .target(name: "ClosureKitTestServer", path: "Tests/Support/ClosureKitTestServer"),
    // The `.heavy` test trait (the stress tests of both test targets take turns) and the waits and
    // helpers both test targets share; not a product.
    .target(
      name: "ClosureKitTestSupport", dependencies: ["ClosureKit", "ClosureKitTesting"],
      path: "Tests/Support/TestSupport"
    ),
    // The randomized soak (issue 28): every source at once from several threads; Scripts/soak.sh.
    .executableTarget(
      name: "closurekit-soak",
      dependencies: ["ClosureKit", "ClosureKitTesting"],
      path: "Tests/Support/Soak"
    ),
    .executableTarget(
      name: "closurekit-demo",
      dependencies: ["ClosureKit", "ClosureKitFoundation", "ClosureKitTesting", "ClosureKitTestServer"]
    ),
    // The program the Getting Started article builds (`swift run feedwatch`); .ci/run runs it.
    .executableTarget(
      name: "feedwatch",
      dependencies: ["ClosureKit", "ClosureKitFoundation", "ClosureKitTestServer"],
      path: "Examples/FeedWatch"
    ),
    .testTarget(
      name: "ClosureKitTests",
      dependencies: ["ClosureKit", "ClosureKitTesting", "ClosureKitTestSupport"]
    ),
    .testTarget(
      name: "ClosureKitSwiftUITests",
      dependencies: ["ClosureKit", "ClosureKitSwiftUI", "ClosureKitTesting", "ClosureKitTestSupport"]
    ),
    .testTarget(
      name: "ClosureKitFoundationTests",
      dependencies: [
        "ClosureKit", "ClosureKitFoundation", "ClosureKitTesting", "ClosureKitTestServer", "ClosureKitTestSupport",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
  var settings = target.swiftSettings ?? []
  settings.append(contentsOf: [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
  ])
  target.swiftSettings = settings
}
