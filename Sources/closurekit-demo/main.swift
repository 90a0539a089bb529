// The guided tour: `swift run closurekit-demo` runs every chapter, `--help` lists them,
// `swift run closurekit-demo events` runs one.

let arguments = Array(CommandLine.arguments.dropFirst())

func printHelp() {
  print(
    """
    closurekit-demo: a guided tour of ClosureKit.

    Usage: closurekit-demo [chapter ...]
           closurekit-demo --help

    With no chapter, runs them all in order. Each chapter's code is in
    Sources/closurekit-demo/Chapter+<Name>.swift. Chapters:
    """
  )
  let width = allChapters.map(\.name.count).max() ?? 0
  for chapter in allChapters {
    let padding = String(repeating: " ", count: width - chapter.name.count)
    print("  \(chapter.name)\(padding)  \(chapter.summary)")
    print("  \(String(repeating: " ", count: width))  code: \(chapter.source)")
  }
}

if arguments.contains("--help") || arguments.contains("-h") {
  printHelp()
  Console.exit(0)
}

var selected: [Chapter] = []
for name in arguments {
  guard let chapter = allChapters.first(where: { $0.name == name }) else {
    print("closurekit-demo: no chapter named '\(name)'.\n")
    printHelp()
    Console.exit(2)
  }
  selected.append(chapter)
}
if selected.isEmpty { selected = allChapters }

for (number, chapter) in selected.enumerated() {
  if number > 0 { print("") }
  let title = "\(chapter.name): \(chapter.summary)"
  print(title)
  print(String(repeating: "=", count: title.count))
  print("(the code of this chapter: \(chapter.source))\n")
  do {
    try await chapter.run()
  } catch {
    print("closurekit-demo: chapter '\(chapter.name)' failed: \(error)")
    Console.exit(1)
  }
}
