// The rows `Scripts/bench-guard.sh` checks: each printed as `guard <key> <value>`, a ratio against
// the baseline of its own table, or bytes per handler.

/// The guard's keys of the registration table's rows.
let registrationGuardRows = [
  ("add-cancel", "Event.addHandler + cancel"),
  ("add-cancel-owner", "Event.addHandler(owner:) + cancel"),
  ("add-cancel-queue", "Event.addHandler(on: .queue) + cancel"),
  ("control-add-remove", "ControlActions.addAction + removeActions"),
  ("bag-of-10", "SubscriptionBag of 10 tokens, dropped (per token)"),
  ("observed-observe-cancel", "Observed.observe + cancel"),
]

let guardSuite = Suite(name: "guard") {
  for handlers in [1, 10, 100] {
    let table = sendTable(handlers: handlers, withNotificationCenter: false)
    table.print()
    print("guard send-\(handlers) \(table.ratio(of: "Event.send"))")
  }
  let registration = registrationTable()
  registration.print()
  for (key, row) in registrationGuardRows {
    print("guard \(key) \(registration.ratio(of: row))")
  }
  let observed = observedWriteTable(rounds: 61, iterations: 25_000)
  observed.print()
  print("guard observed-write \(observed.ratio(of: "Observed, 1 observer [.new]"))")
  print("guard memory-dropped \(measureInChildProcess("event-tokens-dropped"))")
  print("guard memory-kept \(measureInChildProcess("event-tokens-kept"))")
}

/// Only the registration rows of ``guardSuite``, printed the same way: the quick loop while working
/// on the add and remove paths (`closurekit-bench guard-registration`).
let guardRegistrationSuite = Suite(name: "guard-registration") {
  let registration = registrationTable()
  registration.print()
  for (key, row) in registrationGuardRows {
    print("guard \(key) \(registration.ratio(of: row))")
  }
}
