import ClosureKit
import Dispatch

/// The kinds of a headless button, as `UIControl.Event` has them.
struct ButtonEvent: OptionSet, Sendable {
  let rawValue: Int
  static let touchDown = ButtonEvent(rawValue: 1 << 0)
  static let touchUpInside = ButtonEvent(rawValue: 1 << 1)
}

/// A button with no screen: `press()` sends its control events, as a user's tap would.
final class HeadlessButton: Sendable {
  let title: String
  let actions = ControlActions<ButtonEvent, HeadlessButton>()

  init(title: String) { self.title = title }

  /// One press is two sends, as on a real control: `.touchDown`, then `.touchUpInside`.
  func press() {
    print("  [\(title)] touch down: sendActions(for: .touchDown)")
    actions.sendActions(for: .touchDown, with: self)
    print("  [\(title)] touch up: sendActions(for: .touchUpInside)")
    actions.sendActions(for: .touchUpInside, with: self)
  }
}

extension Chapter {
  static let events = Chapter(
    name: "events",
    summary: "Events and control actions: add, send, remove by token, owner binding"
  ) {
    let button = HeadlessButton(title: "Save")

    print("1. A press is two sends (.touchDown, then .touchUpInside). An action registered for both kinds")
    print("   runs once for each of them, never twice for one send:")
    button.actions.addAction(for: [.touchDown, .touchUpInside]) { button in
      print("  action for [.touchDown, .touchUpInside] ran on \(button.title)")
    }
    let logToken = button.actions.addAction(for: .touchUpInside) { _ in print("  log: touchUpInside") }
    button.press()

    print("\n2. Cancelling the log action's token removes that action only:")
    logToken.cancel()
    button.press()

    print("\n3. An owner-bound action stops when its owner is deallocated:")
    var screen: CounterScreen? = CounterScreen(name: "CounterScreen")
    if let screen {
      button.actions.actions(for: .touchUpInside).addHandler(owner: screen) { screen, button in
        screen.increment(button)
      }
    }
    button.press()
    print("  dropping the screen, then pressing again (no \"saw a tap\" line any more):")
    screen = nil
    button.press()
    let left = button.actions.actionCount(for: .touchUpInside)
    print("  actions left for .touchUpInside: \(left) (the one from step 1; the owner-bound one is gone)")

    print("\n4. An Event with a one-shot handler and an async sequence:")
    let saved = Event<String>()
    saved.once { print("  once: first save of \($0)") }
    do {
      let stream = saved.values(bufferingPolicy: .bufferingNewest(8))
      print("  handlers while the sequence lives: \(saved.handlerCount)")
      saved.send("a.txt")
      saved.send("b.txt")
      var received: [String] = []
      for await name in stream {
        received.append(name)
        if received.count == 2 { break }
      }
      print("  values: \(received)")
    }
    print("  handlers after the sequence is gone: \(saved.handlerCount)")

    print("\n5. A handler on a queue, and a token cancelled before its queued delivery starts:")
    let queue = DispatchQueue(label: "demo")
    queue.suspend()
    let queued = saved.addHandler(on: .queue(queue)) { name in print("  never printed: \(name)") }
    saved.send("c.txt")
    queued.cancel()
    queue.resume()
    queue.sync {}
    print("  the queued delivery was dropped: cancel() wins over work already enqueued")
  }
}

/// A screen that binds itself to the button with `owner:`, so no `[weak self]` is needed.
typealias CounterScreen = DemoObject

extension CounterScreen {
  func increment(_ button: HeadlessButton) { print("  \(name) saw a tap on \(button.title)") }
}
